import CCairo
import Foundation

/// Cairo's own PNG reader (`cairo_image_surface_create_from_png_stream`), which decoded tiles
/// before mapcompose had its own PNG decoder: the reference that decoder's pixels are compared
/// with, and the old path in the benchmark.
public enum CairoPNGReference {
    /// The image as Cairo reads it: premultiplied native-endian 0xAARRGGBB words, rows packed
    /// (opaque files, which Cairo reads as RGB24, get alpha 0xFF); nil when Cairo cannot read it.
    public static func decode(_ data: Data) -> (width: Int, height: Int, pixels: [UInt32])? {
        let reader = ByteReader(data)
        let surface = withExtendedLifetime(reader) {
            cairo_image_surface_create_from_png_stream({ closure, buffer, length in
                let reader = Unmanaged<ByteReader>.fromOpaque(closure!).takeUnretainedValue()
                return reader.read(into: buffer, count: Int(length)) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_READ_ERROR
            }, Unmanaged.passUnretained(reader).toOpaque())
        }
        guard let surface else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let base = cairo_image_surface_get_data(surface) else {
            return nil
        }
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let opaque: UInt32 = cairo_image_surface_get_format(surface) == CAIRO_FORMAT_RGB24 ? 0xFF00_0000 : 0
        var pixels = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            (base + y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { row in
                for x in 0..<width { pixels[y * width + x] = row[x] | opaque }
            }
        }
        return (width, height, pixels)
    }
}

/// Feeds a byte buffer to Cairo's PNG stream reader.
private final class ByteReader {
    let data: Data
    var offset = 0

    init(_ data: Data) { self.data = data }

    func read(into buffer: UnsafeMutablePointer<UInt8>?, count: Int) -> Bool {
        guard let buffer, offset + count <= data.count else { return false }
        data.withUnsafeBytes { raw in
            buffer.update(from: raw.bindMemory(to: UInt8.self).baseAddress! + offset, count: count)
        }
        offset += count
        return true
    }
}
