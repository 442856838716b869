import CCairo

/// A Cairo call that did not succeed, with the operation that failed; or a library drawing
/// needs (Pango, for text) that could not be loaded, with why.
public struct CairoError: Error, CustomStringConvertible, Equatable {
    public let operation: String
    public let status: UInt32
    /// What went wrong when it was not a Cairo call (`status` is then CAIRO_STATUS_INVALID_STATUS).
    public var detail: String? = nil

    public var description: String {
        if let detail { return detail }
        let text = cairo_status_to_string(cairo_status_t(status)).map { String(cString: $0) } ?? "unknown"
        return "cairo \(operation) failed: \(text)"
    }

    /// Throws when `status` is not CAIRO_STATUS_SUCCESS.
    static func check(_ status: cairo_status_t, _ operation: String) throws(CairoError) {
        guard status == CAIRO_STATUS_SUCCESS else {
            throw CairoError(operation: operation, status: status.rawValue)
        }
    }
}
