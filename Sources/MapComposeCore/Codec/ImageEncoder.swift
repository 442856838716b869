import CCairo
import CImageCodecs
import Foundation

/// Output image formats.
public enum ImageFormat: String, CaseIterable, Sendable, Codable {
    case png
    case jpeg

    /// The format an output path's extension names, if any.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        default: return nil
        }
    }
}

/// Why an image could not be encoded.
public enum ImageEncodeError: Error, CustomStringConvertible {
    case cairo(CairoError)
    case jpeg(String)

    public var description: String {
        switch self {
        case .cairo(let error): return "PNG encoding failed: \(error)"
        case .jpeg(let message): return "JPEG encoding failed: \(message)"
        }
    }
}

/// Encodes `RasterImage`s as PNG (with alpha) or JPEG (flattened onto white).
public enum ImageEncoder {
    public static func encode(_ image: RasterImage, as format: ImageFormat, quality: Int = 90) throws(ImageEncodeError) -> Data {
        switch format {
        case .png: return try png(image)
        case .jpeg: return try jpeg(image, quality: quality)
        }
    }

    public static func png(_ image: RasterImage) throws(ImageEncodeError) -> Data {
        let sink = ByteSink()
        let status = withExtendedLifetime(sink) {
            cairo_surface_write_to_png_stream(image.surface, { closure, bytes, length in
                let sink = Unmanaged<ByteSink>.fromOpaque(closure!).takeUnretainedValue()
                sink.data.append(bytes!, count: Int(length))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(sink).toOpaque())
        }
        do {
            try CairoError.check(status, "write PNG")
        } catch {
            throw .cairo(error)
        }
        return sink.data
    }

    public static func jpeg(_ image: RasterImage, quality: Int) throws(ImageEncodeError) -> Data {
        let flat: RasterImage
        do {
            flat = try RasterImage(width: image.width, height: image.height)
            let context = try DrawingContext(flat)
            context.clear(to: .white)
            context.draw(image, x: 0, y: 0, scale: 1, padEdges: false)
            try context.finish("flatten for JPEG")
        } catch {
            throw .cairo(error)
        }
        var message = [CChar](repeating: 0, count: 256)
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = flat.withPixels { pixels, _ in
            pixels.baseAddress!.withMemoryRebound(to: UInt8.self, capacity: flat.byteCount) { bytes in
                mc_jpeg_encode_argb32(bytes, Int32(flat.width), Int32(flat.height), Int32(flat.stride),
                                      Int32(min(max(quality, 1), 100)), 0, &output, &length, &message, message.count)
            }
        }
        guard status == 0, let output else { throw .jpeg(String(messageBuffer: message)) }
        defer { mc_jpeg_free(output) }
        return Data(bytes: output, count: length)
    }
}

/// Collects bytes written by Cairo's PNG stream writer.
private final class ByteSink {
    var data = Data()
}
