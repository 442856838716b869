/// A tile's position on the Hilbert curve PMTiles orders tiles by: all tiles of lower levels
/// first (4^0 + … + 4^(z-1) of them), then the level's tiles along the curve.
public enum PMTilesTileID {
    /// The deepest level whose tile IDs fit in 64 bits.
    public static let maxZoom = 31

    /// The ID of tile `x`, `y` (rows from the north) at level `z`; nil outside the level.
    public static func id(z: Int, x: Int, y: Int) -> UInt64? {
        guard (0...maxZoom).contains(z), x >= 0, y >= 0, x < 1 << z, y < 1 << z else { return nil }
        var id = ((UInt64(1) << (2 * UInt64(z))) &- 1) / 3
        var x = UInt64(x), y = UInt64(y)
        var level = z - 1
        while level >= 0 {
            let s = UInt64(1) << UInt64(level)
            let rx: UInt64 = x & s != 0 ? 1 : 0, ry: UInt64 = y & s != 0 ? 1 : 0
            id += s * s * ((3 * rx) ^ ry)
            // Rotate the quadrant; only the bits below `s` matter from here on.
            if ry == 0 {
                if rx == 1 {
                    x = s &- 1 &- x
                    y = s &- 1 &- y
                }
                swap(&x, &y)
            }
            level -= 1
        }
        return id
    }
}
