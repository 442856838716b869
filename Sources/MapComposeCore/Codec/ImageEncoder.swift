import CCairo
import CImageCodecs
import Foundation

/// Encodes `RasterImage`s as PNG (with alpha), JPEG (flattened onto white), WebP (lossy or
/// lossless, with alpha), or a PDF or SVG page holding the image (see `VectorEncoder` for
/// pages with vector overlays).
public enum ImageEncoder {
    public static func encode(_ image: RasterImage, as format: ImageFormat, quality: Int = 90,
                              lossless: Bool = false) throws(ImageEncodeError) -> Data {
        switch format {
        case .png: return try png(image)
        case .jpeg: return try jpeg(image, quality: quality)
        case .webp: return try webp(image, quality: quality, lossless: lossless)
        case .pdf, .svg: return try VectorEncoder.encode(image, as: format, scale: 1) { _ in }
        }
    }

    public static func png(_ image: RasterImage) throws(ImageEncodeError) -> Data {
        let sink = ByteSink()
        let status = withExtendedLifetime(sink) {
            cairo_surface_write_to_png_stream(image.surface, ByteSink.write, Unmanaged.passUnretained(sink).toOpaque())
        }
        do {
            try CairoError.check(status, "write PNG")
        } catch {
            throw .cairo(format: .png, error)
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
            throw .cairo(format: .jpeg, error)
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
        guard status == 0, let output else { throw .codec(format: .jpeg, String(messageBuffer: message)) }
        defer { mc_jpeg_free(output) }
        return Data(bytes: output, count: length)
    }

    /// WebP at `quality` (1…100), or lossless; transparency is kept.
    public static func webp(_ image: RasterImage, quality: Int, lossless: Bool) throws(ImageEncodeError) -> Data {
        var message = [CChar](repeating: 0, count: 256)
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = image.withPixels { pixels, _ in
            UnsafeRawPointer(pixels.baseAddress!).withMemoryRebound(to: UInt8.self, capacity: image.byteCount) { bytes in
                mc_webp_encode_argb32(bytes, Int32(image.width), Int32(image.height), Int32(image.stride),
                                      Int32(min(max(quality, 1), 100)), lossless ? 1 : 0, &output, &length,
                                      &message, message.count)
            }
        }
        guard status == 0, let output else { throw .codec(format: .webp, String(messageBuffer: message)) }
        defer { mc_webp_free(output) }
        return Data(bytes: output, count: length)
    }
}
