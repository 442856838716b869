/// How GeoJSON features are drawn: polygon fill, outline and line stroke, point marker, label.
public struct FeatureSymbolizer: Sendable, Hashable {
    /// Polygon and point fill; nil draws none.
    public var fill: RGBA?
    /// Line, polygon outline and point outline colour; nil draws none.
    public var stroke: RGBA?
    /// Stroke width in tile pixels.
    public var width: Double
    /// Point marker radius in tile pixels.
    public var radius: Double
    /// Feature property whose value labels points.
    public var labelProperty: String?
    public var labelColor: RGBA
    public var labelSize: Double
    public var labelHalo: RGBA?

    public init(fill: RGBA? = RGBA(r: 136, g: 136, b: 136), stroke: RGBA? = RGBA(r: 51, g: 51, b: 51),
                width: Double = 1, radius: Double = 3, labelProperty: String? = nil,
                labelColor: RGBA = RGBA(r: 34, g: 34, b: 34), labelSize: Double = 11,
                labelHalo: RGBA? = RGBA(r: 255, g: 255, b: 255, a: 220)) {
        self.fill = fill
        self.stroke = stroke
        self.width = width
        self.radius = radius
        self.labelProperty = labelProperty
        self.labelColor = labelColor
        self.labelSize = labelSize
        self.labelHalo = labelHalo
    }
}
