import Foundation

/// A longitude/latitude rectangle in degrees. A west edge east of the east edge crosses the
/// antimeridian.
public struct GeoBounds: Equatable, Sendable, Codable {
    public var west: Double
    public var south: Double
    public var east: Double
    public var north: Double

    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// The whole Web Mercator world.
    public static let world = GeoBounds(west: -180, south: -WebMercator.maxLatitude,
                                        east: 180, north: WebMercator.maxLatitude)

    /// True for finite edges within ±180°/±90° with south < north and west ≠ east: the one
    /// check every bbox (command line, style, source metadata) goes through.
    public var isValidBox: Bool {
        [west, south, east, north].allSatisfy(\.isFinite)
            && abs(west) <= 180 && abs(east) <= 180 && abs(south) <= 90 && abs(north) <= 90
            && south < north && west != east
    }

    /// True when the box crosses the antimeridian (west edge east of the east edge).
    public var crossesAntimeridian: Bool { west > east }

    /// The box in EPSG:3857 metres (latitudes clamped to the Mercator limit); across the
    /// antimeridian the east edge lies past +180°.
    public var meters: MetersRect {
        let sw = WebMercator.meters(from: LonLat(lon: west, lat: south))
        let ne = WebMercator.meters(from: LonLat(lon: crossesAntimeridian ? east + 360 : east, lat: north))
        return MetersRect(minX: sw.x, minY: sw.y, maxX: ne.x, maxY: ne.y)
    }

    /// The overlap of two boxes in metres, either of which may cross the antimeridian; nil when
    /// they do not overlap. (Two boxes that both cross overlap around 180°; a crossing box and a
    /// plain one may overlap on either side: the larger overlap is kept.)
    public func metersIntersection(_ other: GeoBounds) -> MetersRect? {
        let a = meters, b = other.meters, world = 2 * WebMercator.originShift
        let overlaps = [0, world, -world].compactMap { a.intersection(b.shifted(x: $0)) }
        return overlaps.max { $0.width * $0.height < $1.width * $1.height }
    }
}
