import CCairo
import Foundation

/// Collects the bytes a Cairo stream writer (PNG, PDF, SVG) hands out.
final class ByteSink {
    var data = Data()

    /// The write function to pass to Cairo with `Unmanaged.passUnretained(sink).toOpaque()`.
    static let write: cairo_write_func_t = { closure, bytes, length in
        let sink = Unmanaged<ByteSink>.fromOpaque(closure!).takeUnretainedValue()
        sink.data.append(bytes!, count: Int(length))
        return CAIRO_STATUS_SUCCESS
    }
}
