import CImageCodecs
import Foundation

/// An opaque PNG (8-bit RGB) compressed a band of rows at a time: each `write` returns the
/// bytes that band added to the file, for the caller to write out, so a large image need not
/// be whole in memory. The file is complete once the last row is written.
public final class PNGRowWriter {
    public let width: Int
    public let height: Int
    private let writer: OpaquePointer

    /// Starts a `width` × `height` file at zlib `level` (0…9).
    public init(width: Int, height: Int, level: Int = 6) throws(ImageEncodeError) {
        precondition(width > 0 && height > 0 && width <= Int(Int32.max) && height <= Int(Int32.max))
        self.width = width
        self.height = height
        var message = [CChar](repeating: 0, count: 256)
        guard let writer = mc_png_row_writer_open(Int32(width), Int32(height), Int32(max(0, min(9, level))),
                                                  &message, message.count) else {
            throw .codec(format: .png, String(messageBuffer: message))
        }
        self.writer = writer
    }

    deinit {
        mc_png_row_writer_close(writer)
    }

    /// Compresses `rows` (whole rows of straight RGBA words; alpha is left out) and returns the
    /// file's bytes written since the last call: the header with the first band.
    public func write(_ rows: UnsafeBufferPointer<UInt32>) throws(ImageEncodeError) -> Data {
        precondition(rows.count % width == 0, "not whole rows")
        var message = [CChar](repeating: 0, count: 256)
        #if _endian(big)
        let words = rows.map { $0.littleEndian }
        let status = words.withUnsafeBytes { raw in
            mc_png_row_writer_write(writer, raw.bindMemory(to: UInt8.self).baseAddress, Int32(rows.count / width),
                                    &message, message.count)
        }
        #else
        let status = mc_png_row_writer_write(writer, UnsafeRawPointer(rows.baseAddress!).assumingMemoryBound(to: UInt8.self),
                                             Int32(rows.count / width), &message, message.count)
        #endif
        guard status == 0 else { throw .codec(format: .png, String(messageBuffer: message)) }
        var length = 0
        let start = mc_png_row_writer_bytes(writer, &length)
        let data = length > 0 ? Data(bytes: start!, count: length) : Data()
        mc_png_row_writer_clear(writer)
        return data
    }
}
