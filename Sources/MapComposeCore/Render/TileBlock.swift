import Foundation

/// Tiles of one layer drawn as one mosaic.
struct TileBlock: Sendable {
    /// The block's rectangle of tiles (unwrapped columns).
    let range: TileRange
    /// The tiles to draw (inside the layer's bounds).
    let tiles: [TileCoord]
    /// Neighbouring tiles whose edge pixels the mosaic keeps in its margin, so that blocks
    /// meet without seams; empty when the layer is one block.
    let ring: [TileCoord]
    /// True when the block is a strip as wide as the layer's range: its ring is the edge row of
    /// the strips above and below, whose tiles the renderer hands over from their own blocks
    /// instead of having them fetched again.
    var ringFromStrips = false

    /// Which sides of a block another block of the same layer lies on.
    struct Sides: Sendable {
        var left = false, top = false, right = false, bottom = false
    }

    let neighbours: Sides
}

extension TileRange {
    /// The tiles just outside this block that lie inside `outer`.
    func ring(within outer: TileRange) -> [TileCoord] {
        let cols = Swift.max(outer.columns.lowerBound, columns.lowerBound - 1)...Swift.min(outer.columns.upperBound, columns.upperBound + 1)
        let rws = Swift.max(outer.rows.lowerBound, rows.lowerBound - 1)...Swift.min(outer.rows.upperBound, rows.upperBound + 1)
        return rws.flatMap { y in
            cols.compactMap { x in columns.contains(x) && rows.contains(y) ? nil : TileCoord(z: level, x: x, y: y) }
        }
    }
}

/// One level of a layer: its blocks of tiles, the alpha it is drawn with inside the layer's
/// group (1, or a crossfade weight), and the tiles of its covering range outside the bounds.
struct LevelPass: Sendable {
    let level: Int
    let alpha: Double
    /// How the level relates to the output's resolution.
    let status: TileStatus
    let blocks: [TileBlock]
    /// Tiles of the covering range left out because they lie outside the layer's bounds.
    let outsideBounds: [TileCoord]
}
