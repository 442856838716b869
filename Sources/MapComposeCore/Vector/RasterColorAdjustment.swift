import CCairo
import Foundation
import MapLibreStyleSpec

/// MapLibre's raster colour adjustments, applied to a raster layer's resampled pixels in the order
/// and with the factors of its raster shader: the hue turned (`raster-hue-rotate`, degrees),
/// saturation (`raster-saturation`, −1 grey to 1), contrast (`raster-contrast`, −1 to 1), then
/// every channel mapped from 0…1 onto `raster-brightness-min`…`raster-brightness-max`.
struct RasterColorAdjustment {
    /// The weights turning the hue: each channel a mix of the three.
    let spin: (Double, Double, Double)
    let saturationFactor: Double
    let contrastFactor: Double
    let brightnessLow: Double
    let brightnessHigh: Double

    /// The layer's adjustments; nil when they change nothing (every property at its default).
    init?(_ layer: MapLibreLayer, _ ctx: EvaluationContext) {
        let hue = layer.number("raster-hue-rotate", ctx)
        let saturation = max(-1, min(1, layer.number("raster-saturation", ctx)))
        let contrast = max(-1, min(1, layer.number("raster-contrast", ctx)))
        let low = max(0, min(1, layer.number("raster-brightness-min", ctx)))
        let high = max(0, min(1, layer.number("raster-brightness-max", ctx)))
        guard hue.truncatingRemainder(dividingBy: 360) != 0 || saturation != 0 || contrast != 0 || low != 0 || high != 1 else {
            return nil
        }
        let angle = hue * .pi / 180, s = sin(angle), c = cos(angle)
        spin = ((2 * c + 1) / 3, (-sqrt(3) * s - c + 1) / 3, (sqrt(3) * s - c + 1) / 3)
        saturationFactor = saturation > 0 ? 1 - 1 / (1.001 - saturation) : -saturation
        contrastFactor = contrast > 0 ? 1 / (1 - contrast) : 1 + contrast
        brightnessLow = low
        brightnessHigh = high
    }

    /// The adjusted colour of premultiplied ARGB `word`.
    func adjusted(_ word: UInt32) -> UInt32 {
        let a = Double(word >> 24) / 255
        guard a > 0 else { return word }
        let r = Double(word >> 16 & 0xff) / 255 / a, g = Double(word >> 8 & 0xff) / 255 / a, b = Double(word & 0xff) / 255 / a
        let (w0, w1, w2) = spin
        var rgb = (w0 * r + w1 * g + w2 * b, w2 * r + w0 * g + w1 * b, w1 * r + w2 * g + w0 * b)
        let average = (r + g + b) / 3
        rgb = (rgb.0 + (average - rgb.0) * saturationFactor, rgb.1 + (average - rgb.1) * saturationFactor,
               rgb.2 + (average - rgb.2) * saturationFactor)
        func finish(_ v: Double) -> UInt32 {
            let contrasted = (v - 0.5) * contrastFactor + 0.5
            let bright = brightnessLow + (brightnessHigh - brightnessLow) * contrasted
            return UInt32((max(0, min(1, bright)) * a * 255).rounded())
        }
        return word & 0xff00_0000 | finish(rgb.0) << 16 | finish(rgb.1) << 8 | finish(rgb.2)
    }

    /// Adjusts every pixel of `surface`, an ARGB32 image surface.
    func apply(to surface: OpaquePointer) {
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return }
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        for y in 0..<height {
            let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { row[x] = adjusted(row[x]) }
        }
        cairo_surface_mark_dirty(surface)
    }
}
