/// The points within `radius` metres of a center (on the WGS84 ellipsoid), so a circle looks
/// as large on the map as it is on the ground.
public struct CircleOverlay: Sendable {
    /// Radii accepted, in metres (a quarter of the Earth's circumference at most).
    public static let radiusRange = 0.0...10_000_000.0

    public var center: LonLat
    public var radius: Double
    public var fill: RGBA?
    public var stroke: StrokeStyle?

    public init(center: LonLat, radius: Double, fill: RGBA? = PolygonOverlay.defaultFill,
                stroke: StrokeStyle? = PolygonOverlay.defaultStroke) {
        self.center = center
        self.radius = radius
        self.fill = fill
        self.stroke = stroke
    }

    /// The outline as `count` points, clockwise from north.
    func ring(count: Int = 180) -> [LonLat] {
        (0..<count).map { Geodesic.destination(from: center, azimuth: Double($0) * 360 / Double(count), distance: radius) }
    }
}
