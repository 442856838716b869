import CCairo

/// A Cairo linear gradient between two points, padded beyond them, destroyed with this object.
final class CairoLinearGradient {
    let pointer: OpaquePointer

    init(from start: SIMD2<Double>, to end: SIMD2<Double>) throws(CairoError) {
        let pattern = cairo_pattern_create_linear(start.x, start.y, end.x, end.y)!
        let status = cairo_pattern_status(pattern)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_pattern_destroy(pattern)
            throw CairoError(operation: "pattern_create_linear", status: status.rawValue)
        }
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        pointer = pattern
    }

    /// Adds a colour stop at `offset` (0 at the start, 1 at the end), unpremultiplied, 0…1.
    func addStop(at offset: Double, _ color: PaintColor) throws(CairoError) {
        cairo_pattern_add_color_stop_rgba(pointer, offset, color.r, color.g, color.b, color.a)
        try CairoError.check(cairo_pattern_status(pointer), "pattern_add_color_stop_rgba")
    }

    deinit {
        cairo_pattern_destroy(pointer)
    }
}
