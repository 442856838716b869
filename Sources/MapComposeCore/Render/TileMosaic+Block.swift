import Foundation

extension TileMosaic {
    /// The mosaic of one block of `plan`, with a margin holding its neighbours' edges when the
    /// layer has several blocks.
    init(block: TileBlock, plan: LayerPlan, tiles: [TileCoord: ResolvedTile], concurrently: Bool = false) throws(CairoError) {
        let matrix = plan.matrix
        let margin = Self.margin(of: matrix), sides = block.neighbours
        let margins = Margins(left: sides.left ? margin : 0, top: sides.top ? margin : 0,
                              right: sides.right ? margin : 0, bottom: sides.bottom ? margin : 0)
        try self.init(range: block.range, coords: block.tiles + block.ring,
                      cellWidth: matrix.tileWidth * plan.pixelRatio, cellHeight: matrix.tileHeight * plan.pixelRatio,
                      margins: margins, concurrently: concurrently) { coord in
            tiles[matrix.wrapped(coord)]?.image
        }
    }

    /// Pixels of its neighbours' tiles a block's mosaic holds on each side that has any: wide
    /// enough for the resampling filter at any scale (Cairo's box filter reads further when
    /// scaling down), at most a whole tile.
    static func margin(of matrix: TileMatrix) -> Int { min(matrix.tileWidth, matrix.tileHeight, 8) }
}
