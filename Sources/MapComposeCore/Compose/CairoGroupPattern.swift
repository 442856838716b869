import CCairo

/// What was drawn in a Cairo group, as a pattern to paint or mask with, destroyed with this object.
final class CairoGroupPattern {
    let pointer: OpaquePointer

    /// Ends the group last begun on `cr` (`cairo_push_group` or `cairo_push_group_with_content`).
    init(popping cr: OpaquePointer) throws(CairoError) {
        let pattern = cairo_pop_group(cr)!
        let status = cairo_pattern_status(pattern)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_pattern_destroy(pattern)
            throw CairoError(operation: "pop_group", status: status.rawValue)
        }
        pointer = pattern
    }

    deinit {
        cairo_pattern_destroy(pointer)
    }
}
