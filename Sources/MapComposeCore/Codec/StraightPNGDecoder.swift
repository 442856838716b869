import CImageCodecs
import Foundation

/// Decodes PNG files to straight-alpha RGBA with libpng, keeping each channel as the file
/// holds it (Cairo's decoder premultiplies, which loses the colour of translucent pixels).
/// Every colour type and bit depth is expanded to 8-bit RGBA; 16-bit samples keep their high
/// byte; no gamma is applied.
public enum StraightPNGDecoder {
    /// Largest accepted image: 2^28 pixels (1 GiB of RGBA), e.g. 16384 × 16384.
    public static let maxPixels = 1 << 28

    /// The image in `data`, or why it cannot be read.
    public static func decode(_ data: Data) throws(TileDecodeError) -> RGBAImage {
        guard !data.isEmpty else { throw .empty }
        guard data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            let head = data.prefix(4).map { String(format: "%02x", $0) }.joined(separator: " ")
            throw .corrupt(format: "PNG", detail: "not a PNG file (starts with \(head))")
        }
        var message = [CChar](repeating: 0, count: 256)
        var buffer: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0
        let status = data.withUnsafeBytes { bytes in
            mc_png_decode_rgba(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, maxPixels, &buffer,
                               &width, &height, &message, message.count)
        }
        guard status == 0, let buffer else {
            let detail = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .corrupt(format: "PNG", detail: detail.isEmpty ? "unreadable image data" : detail)
        }
        defer { mc_png_free(buffer) }
        let count = Int(width) * Int(height)
        let pixels = [UInt32](unsafeUninitializedCapacity: count) { words, initialized in
            UnsafeMutableRawPointer(words.baseAddress!).copyMemory(from: buffer, byteCount: count * 4)
            initialized = count
        }
        #if _endian(big)
        return RGBAImage(width: Int(width), height: Int(height), pixels: pixels.map { UInt32(littleEndian: $0) })
        #else
        return RGBAImage(width: Int(width), height: Int(height), pixels: pixels)
        #endif
    }

    /// The image in the file at `path`.
    public static func decode(file path: String) throws -> RGBAImage {
        try decode(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
