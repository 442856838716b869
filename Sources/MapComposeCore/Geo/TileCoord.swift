import Foundation

/// The address of one tile in an XYZ grid (y = 0 at the north edge).
public struct TileCoord: Hashable, Sendable, Codable, CustomStringConvertible {
    public var z: Int
    public var x: Int
    public var y: Int

    public init(z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// Number of tiles along one side of the grid at this level.
    public var gridSize: Int { 1 << z }

    /// Row in the TMS scheme (y = 0 at the south edge).
    public var tmsY: Int { gridSize - 1 - y }

    /// This coordinate with x wrapped around the antimeridian into [0, 2^z).
    public var wrapped: TileCoord {
        let n = gridSize
        return TileCoord(z: z, x: ((x % n) + n) % n, y: y)
    }

    /// Bing-style quadkey ("" at z0).
    public var quadkey: String {
        var key = ""
        key.reserveCapacity(z)
        for level in stride(from: z, to: 0, by: -1) {
            let mask = 1 << (level - 1)
            var digit = 0
            if x & mask != 0 { digit += 1 }
            if y & mask != 0 { digit += 2 }
            key.append(Character(String(digit)))
        }
        return key
    }

    /// Parses a quadkey; nil for characters other than 0–3.
    public init?(quadkey: String) {
        var x = 0, y = 0
        let z = quadkey.count
        for (index, char) in quadkey.enumerated() {
            let mask = 1 << (z - index - 1)
            switch char {
            case "0": break
            case "1": x |= mask
            case "2": y |= mask
            case "3": x |= mask; y |= mask
            default: return nil
            }
        }
        self.init(z: z, x: x, y: y)
    }

    /// The tile one level up that contains this one.
    public var parent: TileCoord? {
        z > 0 ? TileCoord(z: z - 1, x: x >> 1, y: y >> 1) : nil
    }

    /// Bounds of the tile in longitude/latitude (west, south, east, north).
    public var bounds: GeoBounds {
        let nw = WebMercator.lonLat(from: WorldPixel(x: Double(x) * 256, y: Double(y) * 256), zoom: Double(z))
        let se = WebMercator.lonLat(from: WorldPixel(x: Double(x + 1) * 256, y: Double(y + 1) * 256), zoom: Double(z))
        return GeoBounds(west: nw.lon, south: se.lat, east: se.lon, north: nw.lat)
    }

    public var description: String { "\(z)/\(x)/\(y)" }
}

/// A longitude/latitude rectangle in degrees.
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

    /// True when the two rectangles overlap (touching edges do not count).
    public func intersects(_ other: GeoBounds) -> Bool {
        west < other.east && other.west < east && south < other.north && other.south < north
    }
}

/// A rectangular block of tiles of one level (columns may run past the antimeridian).
public struct TileRange: Equatable, Sendable {
    public let level: Int
    public let columns: ClosedRange<Int>
    public let rows: ClosedRange<Int>

    /// Number of tiles in the block.
    public var count: Int { columns.count * rows.count }

    /// The tiles, row by row.
    public var tiles: [TileCoord] {
        rows.flatMap { y in columns.map { TileCoord(z: level, x: $0, y: y) } }
    }
}
