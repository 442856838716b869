import CCairo

/// A Cairo call that did not succeed, with the operation that failed.
public struct CairoError: Error, CustomStringConvertible, Equatable {
    public let operation: String
    public let status: UInt32

    public var description: String {
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
