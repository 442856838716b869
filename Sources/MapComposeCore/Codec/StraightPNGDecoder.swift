import CImageCodecs
import CPixelMemory
import Foundation

/// Decodes PNG files to straight-alpha RGBA (the common files through the libdeflate fast path
/// of CImageCodecs, the rest through libpng), keeping each channel as the file holds it
/// (premultiplying, as tiles are, loses the colour of translucent pixels).
/// Every colour type and bit depth is expanded to 8-bit RGBA; 16-bit samples keep their high
/// byte; no gamma is applied.
public enum StraightPNGDecoder {
    /// Largest accepted image: 2^28 pixels (1 GiB of RGBA), e.g. 16384 × 16384.
    public static let maxPixels = 1 << 28

    /// The width and height the PNG's header claims, read without decoding a pixel, so sizes
    /// can be compared before any memory is spent on them.
    public static func size(of data: Data) throws(TileDecodeError) -> (width: Int, height: Int) {
        guard !data.isEmpty else { throw .empty }
        guard data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            let head = data.prefix(4).map { String(format: "%02x", $0) }.joined(separator: " ")
            throw .corrupt(format: "PNG", detail: "not a PNG file (starts with \(head))")
        }
        guard let size = TileDecoder.pngHeaderSize(data), size.width > 0, size.height > 0 else {
            throw .corrupt(format: "PNG", detail: "missing or empty IHDR header")
        }
        return size
    }

    /// The image in `data`, or why it cannot be read.
    public static func decode(_ data: Data) throws(TileDecodeError) -> RGBAImage {
        let size = try size(of: data)
        guard size.width <= Int(Int32.max), size.height <= Int(Int32.max), size.width * size.height <= maxPixels else {
            throw .corrupt(format: "PNG", detail: "\(size.width)x\(size.height) pixels is over the limit of \(maxPixels) pixels")
        }
        let count = size.width * size.height
        var message = [CChar](repeating: 0, count: 256)
        var status: Int32 = 1
        // Decoded straight into the array's storage: one allocation, no copy.
        let pixels = [UInt32](unsafeUninitializedCapacity: count) { words, initialized in
            mc_advise_huge_pages(words.baseAddress, count * 4)
            status = data.withUnsafeBytes { bytes in
                mc_png_decode_rgba(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count,
                                   UnsafeMutableRawPointer(words.baseAddress!).assumingMemoryBound(to: UInt8.self),
                                   Int32(size.width), Int32(size.height), &message, message.count)
            }
            initialized = status == 0 ? count : 0
        }
        guard status == 0 else {
            let detail = String(messageBuffer: message)
            throw .corrupt(format: "PNG", detail: detail.isEmpty ? "unreadable image data" : detail)
        }
        #if _endian(big)
        return RGBAImage(width: size.width, height: size.height, pixels: pixels.map { UInt32(littleEndian: $0) })
        #else
        return RGBAImage(width: size.width, height: size.height, pixels: pixels)
        #endif
    }

    /// The image in the file at `path`.
    public static func decode(file path: String) throws -> RGBAImage {
        try decode(try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe))
    }
}
