import Foundation

/// A tile that is ready to draw, or why it is not.
struct ResolvedTile: Sendable {
    enum Content: Sendable {
        case image(RasterImage)
        case missing(TileMissReason)
    }

    let coord: TileCoord
    let content: Content
    let origin: String
    /// True when the tile's bytes were decoded for this render.
    let decoded: Bool
}

/// The tiles of one level stitched edge to edge at their native resolution, so the whole layer
/// is resampled once onto the map: sub-pixel placement with no seams between tiles.
struct TileMosaic {
    let level: Int
    /// Unwrapped tile range covered.
    let minX: Int, minY: Int, columns: Int, rows: Int
    /// Mosaic pixels per 256-px tile pixel (2 for @2x tiles).
    let pixelRatio: Int
    let image: RasterImage

    /// The pixel ratio that keeps every tile's detail: 2 for 512-px tiles, 4 for 1024 (at most 4).
    static func pixelRatio(of tiles: [TileCoord: ResolvedTile]) -> Int {
        let widest = tiles.values.reduce(256) { widest, tile in
            if case .image(let image) = tile.content { return max(widest, image.width) }
            return widest
        }
        return min(4, max(1, Int(exp2(ceil(log2(Double(widest) / 256))))))
    }

    /// Side of one tile in the mosaic.
    var tilePixels: Int { 256 * pixelRatio }

    /// Stitches `tiles` (keyed by wrapped coordinate) over the unwrapped `range`.
    init(level: Int, pixelRatio: Int, range: [TileCoord], tiles: [TileCoord: ResolvedTile]) throws(CairoError) {
        let xs = range.map(\.x), ys = range.map(\.y)
        minX = xs.min() ?? 0
        minY = ys.min() ?? 0
        columns = (xs.max() ?? 0) - minX + 1
        rows = (ys.max() ?? 0) - minY + 1
        self.level = level
        self.pixelRatio = pixelRatio
        let tilePixels = 256 * pixelRatio
        image = try RasterImage(width: columns * tilePixels, height: rows * tilePixels)
        let context = try DrawingContext(image)
        for coord in range {
            guard let tile = tiles[coord.wrapped], case .image(let tileImage) = tile.content,
                  tileImage.width > 0 else { continue }
            context.draw(tileImage,
                         x: Double((coord.x - minX) * tilePixels),
                         y: Double((coord.y - minY) * tilePixels),
                         scale: Double(tilePixels) / Double(tileImage.width), padEdges: false)
        }
        try context.finish("stitch tile mosaic")
    }
}
