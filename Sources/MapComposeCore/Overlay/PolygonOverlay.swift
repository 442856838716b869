/// A filled area: an outer ring and optional holes (even-odd), with an optional outline.
public struct PolygonOverlay: Sendable {
    public var rings: [[LonLat]]
    public var fill: RGBA?
    public var stroke: StrokeStyle?
    public var geodesic: Bool

    public init(rings: [[LonLat]], fill: RGBA? = PolygonOverlay.defaultFill,
                stroke: StrokeStyle? = PolygonOverlay.defaultStroke, geodesic: Bool = false) {
        self.rings = rings
        self.fill = fill
        self.stroke = stroke
        self.geodesic = geodesic
    }

    public static let defaultFill = RGBA(r: 51, g: 102, b: 204, a: 85)
    public static let defaultStroke = StrokeStyle(color: RGBA(r: 51, g: 102, b: 204), width: 2)
}
