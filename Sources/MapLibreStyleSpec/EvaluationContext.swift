/// What an expression reads while it is evaluated: the camera (zoom), the feature
/// (properties, id, geometry type, state) and the renderer's inputs (heatmap density,
/// line progress). One context may be reused from feature to feature.
public final class EvaluationContext {
    public var zoom: Double
    public var heatmapDensity: Double = 0
    public var lineProgress: Double = 0
    public var elevation: Double = 0
    /// The value of `accumulated` (cluster properties).
    public var accumulated: Value = .null
    public var properties: [String: Value]
    /// The feature's id, `.null` where it has none.
    public var id: Value
    /// "Point", "LineString", "Polygon" (or their Multi forms), nil without a feature.
    public var geometryType: String?
    /// Feature state; empty where the renderer keeps none.
    public var featureState: [String: Value] = [:]
    /// The style's global state, read by `global-state`.
    public var globalState: [String: Value] = [:]
    /// Image names the renderer has, nil where unknown (then `image` reports them unavailable).
    public var availableImages: Set<String>?
    /// The feature's geometry in longitude/latitude, for `within` and `distance`.
    public var geometry: FeatureGeometry?
    private var colorCache: [String: Color?] = [:]

    public init(zoom: Double = 0, properties: [String: Value] = [:], id: Value = .null, geometryType: String? = nil) {
        self.zoom = zoom
        self.properties = properties
        self.id = id
        self.geometryType = geometryType
    }

    /// A parsed CSS color, cached by text.
    func parseColor(_ text: String) -> Color? {
        if let c = colorCache[text] { return c }
        let c = Color.parse(text)
        if colorCache.count < 1024 { colorCache[text] = c }
        return c
    }
}
