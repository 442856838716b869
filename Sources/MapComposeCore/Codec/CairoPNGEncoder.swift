import CCairo
import Foundation

/// Cairo's own PNG writer (`cairo_surface_write_to_png_stream`: libpng at its default level, on
/// one core): the reference `ImageEncoder.png` is measured and tested against.
public enum CairoPNGEncoder {
    public static func encode(_ image: RasterImage) throws(ImageEncodeError) -> Data {
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
}
