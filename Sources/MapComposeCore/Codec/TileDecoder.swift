import CImageCodecs
import Foundation

/// Why a tile's bytes could not become an image.
public enum TileDecodeError: Error, Equatable, CustomStringConvertible {
    case empty
    case unknownFormat(firstBytes: String)
    case tooLarge(format: String, width: Int, height: Int)
    case corrupt(format: String, detail: String)

    public var description: String {
        switch self {
        case .empty:
            return "empty tile data"
        case .unknownFormat(let bytes):
            return "not a PNG, JPEG or WebP image (starts with \(bytes))"
        case .tooLarge(let format, let w, let h):
            return "\(format) header claims \(w)x\(h) pixels, over the \(TileDecoder.maxSide)x\(TileDecoder.maxSide) limit"
        case .corrupt(let format, let detail):
            return "corrupt \(format) data: \(detail)"
        }
    }
}

/// Turns PNG, JPEG or WebP bytes into a `RasterImage`, refusing oversized headers before allocating.
public enum TileDecoder {
    /// Largest accepted tile side in pixels.
    public static let maxSide = 4096

    public static func decode(_ data: Data) throws(TileDecodeError) -> RasterImage {
        try decode(data) { _, _ in nil }
    }

    /// Decodes into the image `target(width, height)` gives for the header's size, or into a
    /// new image when it gives nil. A given image that does not decode is left transparent.
    static func decode(_ data: Data, into target: (_ width: Int, _ height: Int) -> RasterImage?)
        throws(TileDecodeError) -> RasterImage {
        guard !data.isEmpty else { throw .empty }
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return try decodePNG(data, into: target)
        }
        if data.starts(with: [0xFF, 0xD8]) {
            return try decodeJPEG(data, into: target)
        }
        if data.count >= 12, data.prefix(4) == Data("RIFF".utf8), data.dropFirst(8).prefix(4) == Data("WEBP".utf8) {
            return try decodeWebP(data, into: target)
        }
        let head = data.prefix(4).map { String(format: "%02x", $0) }.joined(separator: " ")
        throw .unknownFormat(firstBytes: head)
    }

    /// Width and height from a PNG's IHDR chunk, or nil when there is none.
    static func pngHeaderSize(_ data: Data) -> (width: Int, height: Int)? {
        guard data.count >= 24 else { return nil }
        let bytes = [UInt8](data.prefix(24))
        guard bytes[12...15].elementsEqual("IHDR".utf8) else { return nil }
        func word(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        return (word(16), word(20))
    }

    /// Premultiplied in one pass with Cairo's own rounding, so the pixels equal what Cairo's PNG
    /// reader made of the same file.
    private static func decodePNG(_ data: Data, into target: (Int, Int) -> RasterImage?) throws(TileDecodeError) -> RasterImage {
        guard let size = pngHeaderSize(data) else {
            throw .corrupt(format: "PNG", detail: "missing IHDR header")
        }
        guard size.width > 0, size.height > 0 else {
            throw .corrupt(format: "PNG", detail: "header claims \(size.width)x\(size.height) pixels")
        }
        guard size.width <= maxSide, size.height <= maxSide else {
            throw .tooLarge(format: "PNG", width: size.width, height: size.height)
        }
        var message = [CChar](repeating: 0, count: 256)
        let width = Int32(size.width), height = Int32(size.height)
        let (image, status) = try decode(data, format: "PNG", width: width, height: height, into: target) { bytes, count, out, stride in
            mc_png_decode_argb32(bytes, count, out, width, height, stride, &message, message.count)
        }
        guard status == 0 else {
            let detail = String(messageBuffer: message)
            throw .corrupt(format: "PNG", detail: detail.isEmpty ? "unreadable image data" : detail)
        }
        return image
    }

    private static func decodeJPEG(_ data: Data, into target: (Int, Int) -> RasterImage?) throws(TileDecodeError) -> RasterImage {
        var message = [CChar](repeating: 0, count: 256)
        var info = mc_jpeg_info()
        let headerStatus = data.withUnsafeBytes { raw in
            mc_jpeg_read_info(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &info, &message, message.count)
        }
        guard headerStatus == 0 else {
            throw .corrupt(format: "JPEG", detail: String(messageBuffer: message))
        }
        guard info.width > 0, info.height > 0 else {
            throw .corrupt(format: "JPEG", detail: "header claims \(info.width)x\(info.height) pixels")
        }
        let (image, status) = try decode(data, format: "JPEG", width: info.width, height: info.height, into: target) { bytes, count, out, stride in
            mc_jpeg_decode_argb32(bytes, count, out, info.width, info.height, stride, &message, message.count)
        }
        guard status == 0 else {
            throw .corrupt(format: "JPEG", detail: String(messageBuffer: message))
        }
        return image
    }
}

extension TileDecoder {
    /// An image of the header's size (checked against `maxSide`): `target`'s, or a new one,
    /// whose pixels `fill` writes from the data (bytes, count, pixels, stride), with the
    /// status `fill` returned. `target`'s image is made transparent again when `fill` fails.
    private static func decode(_ data: Data, format: String, width: Int32, height: Int32,
                               into target: (Int, Int) -> RasterImage?,
                               fill: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>, Int32) -> Int32)
        throws(TileDecodeError) -> (RasterImage, Int32) {
        guard width <= maxSide, height <= maxSide else {
            throw .tooLarge(format: format, width: Int(width), height: Int(height))
        }
        let given = target(Int(width), Int(height))
        let image: RasterImage
        if let given {
            image = given
        } else {
            do {
                image = try RasterImage(width: Int(width), height: Int(height))
            } catch {
                throw .corrupt(format: format, detail: error.description)
            }
        }
        let stride = image.stride
        let status = image.withMutablePixels { pixels, _ in
            data.withUnsafeBytes { raw in
                pixels.baseAddress!.withMemoryRebound(to: UInt8.self, capacity: pixels.count * 4) { out in
                    fill(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, out, Int32(stride))
                }
            }
        }
        if status != 0, given != nil { image.clearPixels() }
        return (image, status)
    }

    private static func decodeWebP(_ data: Data, into target: (Int, Int) -> RasterImage?) throws(TileDecodeError) -> RasterImage {
        var width: Int32 = 0, height: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let headerStatus = data.withUnsafeBytes { raw in
            mc_webp_read_info(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &width, &height, &message, message.count)
        }
        guard headerStatus == 0 else { throw .corrupt(format: "WebP", detail: String(messageBuffer: message)) }
        guard width > 0, height > 0 else { throw .corrupt(format: "WebP", detail: "unreadable header") }
        let (image, status) = try decode(data, format: "WebP", width: width, height: height, into: target) { bytes, count, out, stride in
            mc_webp_decode_argb32(bytes, count, out, width, height, stride, &message, message.count)
        }
        guard status == 0 else { throw .corrupt(format: "WebP", detail: String(messageBuffer: message)) }
        return image
    }
}
