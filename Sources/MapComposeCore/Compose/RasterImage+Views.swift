import CCairo
import Foundation

extension RasterImage {
    /// A second image over rows `rows` of this one's pixels, drawn on in this image's
    /// coordinates (its surface's device offset moves them), with its own Cairo surface: threads
    /// each drawing on their own rows of one image never share a Cairo or pixman object.
    func view(rows: Range<Int>) throws(CairoError) -> RasterImage {
        precondition(rows.lowerBound >= 0 && rows.upperBound <= height && !rows.isEmpty, "rows outside the image")
        let view = surface(over: 0, rows.lowerBound, width, rows.count)
        cairo_surface_set_device_offset(view, 0, -Double(rows.lowerBound))
        return try RasterImage(view: view, of: self)
    }

    /// A second image over the `width × height` pixels at (`x`, `y`) of this one, with its own
    /// Cairo surface and its own coordinates (its top-left pixel is (0, 0)); a tile's cell of
    /// `slab` when given.
    func cellView(x: Int, y: Int, width: Int, height: Int, slab: TileSlab?) throws(CairoError) -> RasterImage {
        precondition(x >= 0 && y >= 0 && width > 0 && height > 0 && x + width <= self.width && y + height <= self.height,
                     "cell outside the image")
        return try RasterImage(view: surface(over: x, y, width, height), of: self,
                               cell: slab.map { TileSlab.Cell(slab: $0, x: x, y: y) })
    }

    /// A new surface over the `width × height` pixels at (`x`, `y`), rows `stride` apart
    /// (this image flushed first, so the pixels are current).
    private func surface(over x: Int, _ y: Int, _ width: Int, _ height: Int) -> OpaquePointer {
        cairo_surface_flush(surface)
        let first = cairo_image_surface_get_data(surface)! + y * stride + x * 4
        return cairo_image_surface_create_for_data(first, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride))!
    }

    /// Tells Cairo this image's pixels were changed through views: until then it may still take
    /// a new image for clear and paint nothing from it.
    func markChanged() {
        cairo_surface_mark_dirty(surface)
    }

    /// A second image over all of this one's pixels with its own Cairo surface, to draw from on
    /// one thread while other threads draw from this image.
    func privateView() throws(CairoError) -> RasterImage {
        try view(rows: 0..<height)
    }
}
