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
    /// size, and never paints outside that cell. With `rows`, the image holds only those rows of
    /// the mosaic (margins counted; its `margins` then say where the range's cells lie, a
    /// negative margin where they start or end outside it). With `concurrently`, a large mosaic
    /// is stitched on all cores, a row of cells per call.
    init(range: TileRange, coords: [TileCoord], cellWidth: Int, cellHeight: Int, margins: Margins = Margins(),
         rows: Range<Int>? = nil, concurrently: Bool = false, tile: (TileCoord) -> RasterImage?) throws(CairoError) {
        self.range = range
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        let width = range.columns.count * cellWidth + margins.left + margins.right
        let fullHeight = range.rows.count * cellHeight + margins.top + margins.bottom
        let kept = (rows ?? 0..<fullHeight).clamped(to: 0..<fullHeight)
        let height = kept.count
        self.margins = Margins(left: margins.left, top: margins.top - kept.lowerBound, right: margins.right,
                               bottom: margins.bottom - (fullHeight - kept.upperBound))
        let top = self.margins.top
        let placed = coords.compactMap { coord in
            tile(coord).map { Placed(image: $0, x: (coord.x - range.columns.lowerBound) * cellWidth + margins.left,
                                     y: (coord.y - range.rows.lowerBound) * cellHeight + top) }
        }
        if let slab = TileSlab.laidOut(placed.map { ($0.image, $0.x, $0.y) }, width: width, height: height) {
            // The tiles were decoded in place: the slab is this mosaic, pixel for pixel.
            image = try slab.image.privateView()
            return
        }
        // Memory that may be reused: what no tile's cell covers is cleared.
        image = try RasterImage(unclearedWidth: width, height: height)
        try Self.stitch(placed, onto: image, cellWidth: cellWidth, cellHeight: cellHeight,
                        concurrently: concurrently && width * height >= Self.concurrentMinimumPixels)
    }

    /// A tile and the top-left corner of its cell in the mosaic.
    private struct Placed {
        let image: RasterImage
        let x: Int, y: Int
    }

    /// Draws `placed` onto `image` and clears the rest of it, a row of cells per call (on all
    /// cores with `concurrently`), each call on its own view of the mosaic's rows and of its
    /// tiles; rows no tile reaches are cleared by a call of their own. The views are made first,
    /// on this thread: making one flushes the surface it views.
    private static func stitch(_ placed: [Placed], onto image: RasterImage, cellWidth: Int, cellHeight: Int,
                               concurrently: Bool) throws(CairoError) {
        let sorted = placed.sorted { $0.y < $1.y }
        var bands: [(target: RasterImage, tiles: [Placed])] = []
        var cleared = 0
        func clearBand(to end: Int) throws(CairoError) {
            if end > cleared { bands.append((try image.view(rows: cleared..<end), [])) }
        }
        var start = 0
        while start < sorted.count {
            let top = sorted[start].y
            var end = start
            while end < sorted.count, sorted[end].y == top { end += 1 }
            let rows = max(cleared, top)..<min(image.height, top + cellHeight)
            if !rows.isEmpty {
                try clearBand(to: rows.lowerBound)
                let tiles = try sorted[start..<end].map { tile throws(CairoError) in
                    Placed(image: try tile.image.privateView(), x: tile.x, y: tile.y)
                }
                bands.append((try image.view(rows: rows), tiles))
                cleared = rows.upperBound
            }
            start = end
        }
        try clearBand(to: image.height)
        func stitchBand(_ index: Int) throws(CairoError) {
            // A tile replaces its whole cell: only what no cell of the band covers is cleared.
            let target = bands[index].target
            target.clearPixels(exceptColumns: bands[index].tiles.map { tile in
                (tile.x..<tile.x + cellWidth).clamped(to: 0..<target.width)
            })
            if bands[index].tiles.isEmpty { return }
            let context = try DrawingContext(target)
            for tile in bands[index].tiles {
                context.draw(tile.image, intoCellX: tile.x, y: tile.y, width: cellWidth, height: cellHeight)
            }
            try context.finish("stitch tile mosaic")
        }
        if concurrently {
            try ConcurrentWork.run(bands.count, stitchBand)
        } else {
            for index in bands.indices { try stitchBand(index) }
        }
        // Drawn through views: Cairo must hear of it, or it still takes the mosaic for clear.
        image.markChanged()
    }

    /// Fewest pixels of a mosaic stitched on all cores.
    static let concurrentMinimumPixels = 512 * 1024
}
