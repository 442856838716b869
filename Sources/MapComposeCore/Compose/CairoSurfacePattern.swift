import CCairo

/// A Cairo pattern drawing an image, destroyed with this object.
final class CairoSurfacePattern {
    let pointer: OpaquePointer
    /// The image whose surface the pattern draws, kept while the pattern is.
    private let image: RasterImage

    init(_ image: RasterImage) throws(CairoError) {
        let pattern = cairo_pattern_create_for_surface(image.surface)!
        let status = cairo_pattern_status(pattern)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_pattern_destroy(pattern)
            throw CairoError(operation: "pattern_create_for_surface", status: status.rawValue)
        }
        pointer = pattern
        self.image = image
    }

    /// Repeats the image in every direction; `transform` maps user space to the image's pixels.
    func repeating(transform: cairo_matrix_t, filter: cairo_filter_t) throws(CairoError) {
        var matrix = transform
        cairo_pattern_set_matrix(pointer, &matrix)
        cairo_pattern_set_extend(pointer, CAIRO_EXTEND_REPEAT)
        cairo_pattern_set_filter(pointer, filter)
        try CairoError.check(cairo_pattern_status(pointer), "pattern_set_matrix")
    }

    deinit {
        cairo_pattern_destroy(pointer)
    }
}
