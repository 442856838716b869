import Foundation

/// Where a mosaic of one tile range lands on the map: the device position of its first cell's
/// top-left corner and the scale from mosaic pixels to device pixels.
struct MosaicPlacement {
    /// Device position of the top-left corner of the range's first cell.
    let corner: (x: Double, y: Double)
    /// Device pixels per mosaic pixel.
    let scale: Double
    /// Device position of the mosaic image's top-left pixel (before its margins).
    let imageOrigin: (x: Double, y: Double)

    init(plan: LayerPlan, viewport: Viewport, range: TileRange, cellWidth: Int, margins: TileMosaic.Margins) {
        let matrix = plan.matrix, level = range.level
        let extent = matrix.tileExtent(level: level, column: range.columns.lowerBound, row: range.rows.lowerBound)
        let metresPerMosaicPixel = matrix.levels[level].resolution * Double(matrix.tileWidth) / Double(cellWidth)
        scale = metresPerMosaicPixel / viewport.resolution
        let point = viewport.devicePoint(x: extent.minX, y: extent.maxY)
        corner = (point.x, point.y)
        imageOrigin = (point.x - Double(margins.left) * scale, point.y - Double(margins.top) * scale)
    }

    /// True when mosaic pixels fall exactly on device pixels: no resampling.
    var isAligned: Bool { DrawingContext.isAligned(x: imageOrigin.x, y: imageOrigin.y, scale: scale) }
}
