import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes whole buffers to file descriptors, retrying short and interrupted writes.
enum DescriptorWriter {
    /// Writes all of `data` to `descriptor`; returns 0, or the `errno` of the write that failed.
    static func writeAll(_ data: Data, to descriptor: Int32) -> Int32 {
        data.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return 0 }
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return 0
        }
    }

    /// The system's text for an `errno` value.
    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
