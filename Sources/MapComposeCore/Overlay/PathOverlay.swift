/// A line through points, straight on the map or along geodesics (`geodesic`); each step
/// takes the short way round, also across the antimeridian.
public struct PathOverlay: Sendable {
    public var points: [LonLat]
    public var stroke: StrokeStyle
    public var geodesic: Bool

    public init(points: [LonLat], stroke: StrokeStyle = PathOverlay.defaultStroke, geodesic: Bool = false) {
        self.points = points
        self.stroke = stroke
        self.geodesic = geodesic
    }

    public static let defaultStroke = StrokeStyle(color: RGBA(r: 51, g: 102, b: 204), width: 3)
}
