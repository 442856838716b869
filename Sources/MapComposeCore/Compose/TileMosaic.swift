import Foundation

/// The tiles of one block stitched edge to edge at their native resolution, so a layer is
/// resampled once onto the map: sub-pixel placement with no seams between tiles. Margins on
/// the sides where the block has neighbours hold the edges of those neighbours' tiles, so that
/// blocks drawn side by side resample exactly as one mosaic would; a side without neighbours
/// has none, so the image's own edge pixels extend there as they would for a single mosaic.
struct TileMosaic {
    /// Pixels added around the block's cells, per side.
    struct Margins: Equatable {
        var left = 0, top = 0, right = 0, bottom = 0
    }

    let range: TileRange
    /// Pixels of one grid cell in the mosaic (tile size × pixel ratio).
    let cellWidth: Int, cellHeight: Int
    let margins: Margins
    let image: RasterImage

    /// Stitches the tiles `tile(coord)` returns for `coords` (unwrapped; tiles outside the block
    /// land in the margin, clipped to it). Each tile is scaled into its own cell whatever its
    /// size, and never paints outside that cell.
    init(range: TileRange, coords: [TileCoord], cellWidth: Int, cellHeight: Int, margins: Margins = Margins(),
         tile: (TileCoord) -> RasterImage?) throws(CairoError) {
        self.range = range
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        self.margins = margins
        image = try RasterImage(width: range.columns.count * cellWidth + margins.left + margins.right,
                                height: range.rows.count * cellHeight + margins.top + margins.bottom)
        let context = try DrawingContext(image)
        for coord in coords {
            guard let tileImage = tile(coord) else { continue }
            context.draw(tileImage, intoCellX: (coord.x - range.columns.lowerBound) * cellWidth + margins.left,
                         y: (coord.y - range.rows.lowerBound) * cellHeight + margins.top, width: cellWidth, height: cellHeight)
        }
        try context.finish("stitch tile mosaic")
    }
}
