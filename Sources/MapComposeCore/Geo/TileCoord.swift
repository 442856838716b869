import Foundation

/// The address of one tile: level `z`, column `x`, row `y` (row 0 at the top of the grid).
public struct TileCoord: Hashable, Sendable, Codable, CustomStringConvertible {
    public var z: Int
    public var x: Int
    public var y: Int

    public init(z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// Number of tiles along one side of an XYZ (quadtree) grid at this level.
    public var gridSize: Int { 1 << z }

    /// Row in the TMS scheme of an XYZ grid (y = 0 at the south edge).
    public var tmsY: Int { gridSize - 1 - y }

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

    public var description: String { "\(z)/\(x)/\(y)" }
}
