import CImageCodecs
import Foundation

/// Encodes `RasterImage`s as PNG (with alpha), JPEG (flattened onto white), WebP (lossy or
/// lossless, with alpha), or a PDF or SVG page holding the image (see `VectorEncoder` for
/// pages with vector overlays).
public enum ImageEncoder {
    public static func encode(_ image: RasterImage, as format: ImageFormat, quality: Int = 90,
                              lossless: Bool = false, pngCompression: PNGCompression = .default) throws(ImageEncodeError) -> Data {
        switch format {
        case .png: return try png(image, compression: pngCompression)
        case .jpeg: return try jpeg(image, quality: quality)
        case .webp: return try webp(image, quality: quality, lossless: lossless)
        case .pdf, .svg: return try VectorEncoder.encode(image, as: format, scale: 1) { _ in }
        }
    }

    /// PNG from `mc_png_encode_argb32`: the pixels Cairo's own writer would store, RGB when
    /// the image is opaque, deflated in strips on the cores the `CPUPool` has free, at the level `compression` names (and for
    /// `default`, run-length coded where that does as well), with a `tEXt` chunk after the
    /// header for each of `text` (keyword, Latin-1 text).
    public static func png(_ image: RasterImage, compression: PNGCompression = .default,
                           text: [(keyword: String, text: String)] = []) throws(ImageEncodeError) -> Data {
        let chunks = PNGTextChunk.chunks(text)
        return try chunks.withUnsafeBufferPointer { chunks throws(ImageEncodeError) in
            try runCodec(image, .png, free: mc_png_free) { bytes, output, length, message, capacity in
                mc_png_encode_argb32(bytes, Int32(image.width), Int32(image.height), Int32(image.stride),
                                     Int32(compression.zlibLevel), compression.triesRunLength ? 1 : 0,
                                     Int32(CPUPool.shared.threads), cpuPoolParallelFor, chunks.baseAddress, chunks.count, &output, &length, message, capacity)
            }
        }
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
        return try runCodec(flat, .jpeg, free: mc_jpeg_free) { bytes, output, length, message, capacity in
            mc_jpeg_encode_argb32(bytes, Int32(flat.width), Int32(flat.height), Int32(flat.stride),
                                  Int32(min(max(quality, 1), 100)), 0, &output, &length, message, capacity)
        }
    }

    /// WebP at `quality` (1…100), or lossless; transparency is kept.
    public static func webp(_ image: RasterImage, quality: Int, lossless: Bool) throws(ImageEncodeError) -> Data {
        try runCodec(image, .webp, free: mc_webp_free) { bytes, output, length, message, capacity in
            mc_webp_encode_argb32(bytes, Int32(image.width), Int32(image.height), Int32(image.stride),
                                  Int32(min(max(quality, 1), 100)), lossless ? 1 : 0, &output, &length, message, capacity)
        }
    }

    /// Runs one of the C encoders over the image's bytes: `encode` returns 0 and sets the
    /// output buffer (the data's own, released with `free` when the data is) and its length,
    /// or writes a message.
    private static func runCodec(
        _ image: RasterImage, _ format: ImageFormat, free: @escaping @Sendable (UnsafeMutablePointer<UInt8>) -> Void,
        _ encode: (UnsafePointer<UInt8>, inout UnsafeMutablePointer<UInt8>?, inout Int, UnsafeMutablePointer<CChar>, Int) -> Int32
    ) throws(ImageEncodeError) -> Data {
        try runCodec(format, free: free) { output, length, message, capacity in
            image.withPixels { pixels, _ in
                UnsafeRawPointer(pixels.baseAddress!).withMemoryRebound(to: UInt8.self, capacity: pixels.count * 4) { bytes in
                    encode(bytes, &output, &length, message, capacity)
                }
            }
        }
    }

    /// Runs a C encoder: `encode` returns 0 and sets the output buffer (the data's own,
    /// released with `free` when the data is) and its length, or writes a message.
    private static func runCodec(
        _ format: ImageFormat, free: @escaping @Sendable (UnsafeMutablePointer<UInt8>) -> Void,
        _ encode: (inout UnsafeMutablePointer<UInt8>?, inout Int, UnsafeMutablePointer<CChar>, Int) -> Int32
    ) throws(ImageEncodeError) -> Data {
        var message = [CChar](repeating: 0, count: 256)
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = message.withUnsafeMutableBufferPointer { buffer in
            encode(&output, &length, buffer.baseAddress!, buffer.count)
        }
        guard status == 0, let output else { throw .codec(format: format, String(messageBuffer: message)) }
        // The codec's buffer becomes the data's, not copied: `free` releases it with the data.
        return Data(bytesNoCopy: output, count: length, deallocator: .custom { bytes, _ in
            free(bytes.assumingMemoryBound(to: UInt8.self))
        })
    }
}

/// The PNG writer's strips run through the process's `CPUPool`.
private let cpuPoolParallelFor: mc_parallel_for = { task, context, count in
    guard let task else { return }
    nonisolated(unsafe) let context = context
    CPUPool.shared.perform(Int(count)) { task(context, Int32($0)) }
}
