import Foundation

/// Writes a raster map as a PDF or SVG page with vectors on top: the image fills the page
/// (`image.width / scale` × `image.height / scale` points or CSS pixels, at full resolution),
/// and `decorate` draws in the image's pixels as vectors (overlays, attribution), so a
/// printed map keeps sharp lines and text.
enum VectorEncoder {
    static func encode(_ image: RasterImage, as format: ImageFormat, scale: Double,
                       decorate: (DrawingContext) -> Void) throws(ImageEncodeError) -> Data {
        do {
            let page = try VectorPage(format: format, width: Double(image.width) / scale,
                                      height: Double(image.height) / scale)
            try draw(image, scale: scale, on: page, decorate: decorate)
            return try page.finish()
        } catch {
            throw .cairo(format: format, error)
        }
    }

    private static func draw(_ image: RasterImage, scale: Double, on page: VectorPage,
                             decorate: (DrawingContext) -> Void) throws(CairoError) {
        let context = try DrawingContext(page)
        context.scale(1 / scale)
        context.draw(image, x: 0, y: 0, scale: 1, padEdges: false)
        decorate(context)
        try context.finish("draw page")
    }
}
