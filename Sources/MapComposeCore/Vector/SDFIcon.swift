import Foundation

/// A sprite icon stored as a signed distance field (`"sdf": true` in the sprite's index: its
/// alpha is the distance to the shape's edge, 0.75 on the edge, more inside) drawn in colour as
/// MapLibre's SDF shader draws it: `icon-color` where the distance passes the edge, an
/// `icon-halo-color` band `icon-halo-width` pixels wide outside it, each edge smoothed over
/// MapLibre's gamma, widened by `icon-halo-blur` for the halo's outer edge. As in MapLibre, the
/// field is sampled (bilinearly) at each pixel the icon covers on the map and the colour
/// decided there, so edges stay sharp however far the icon is scaled.
struct SDFIcon {
    /// How the icon is coloured; widths in CSS pixels, as the style gives them.
    struct Paint: Hashable {
        var color: PaintColor
        var halo: PaintColor?
        var haloWidth: Double
        var haloBlur: Double
        /// `icon-size`: MapLibre's font scale for icons, which narrows the edges' smoothing.
        var size: Double
        /// Device pixels per CSS pixel (`--scale`), MapLibre's device pixel ratio.
        var pixelRatio: Double
    }

    /// Icons coloured during one placement of labels, by sprite name and paint, so that the
    /// many symbols of a layer that share an icon and its colours colour it once.
    final class Cache {
        private var icons: [String: [Paint: SpriteIcon]] = [:]

        /// The sprite's `icon` named `name` coloured with `paint`; nil where it cannot be made.
        func colored(_ name: String, _ icon: SpriteIcon, _ paint: Paint) -> SpriteIcon? {
            if let known = icons[name]?[paint] { return known }
            let made = SDFIcon.colored(icon, paint)
            if let made { icons[name, default: [:]][paint] = made }
            return made
        }
    }

    /// `icon` coloured with `paint` at the size it is drawn (`paint.size` × `paint.pixelRatio`
    /// device pixels per CSS pixel): its pixel ratio, stretch zones and content box grow by as
    /// much; nil where the image cannot be made.
    static func colored(_ icon: SpriteIcon, _ paint: Paint) -> SpriteIcon? {
        guard let image = try? colored(icon.image, paint, scale: paint.size * paint.pixelRatio / icon.pixelRatio) else {
            return nil
        }
        let grown = Double(image.width) / Double(icon.image.width)
        func zones(_ ranges: [ClosedRange<Double>]) -> [ClosedRange<Double>] {
            ranges.map { $0.lowerBound * grown...$0.upperBound * grown }
        }
        return SpriteIcon(image: image, pixelRatio: icon.pixelRatio * grown, stretchX: zones(icon.stretchX),
                          stretchY: zones(icon.stretchY),
                          content: icon.content.map { ($0.left * grown, $0.top * grown, $0.right * grown, $0.bottom * grown) })
    }

    /// The distance on the shape's edge (MapLibre's `(256 - 64) / 256`).
    static let edge = 0.75
    /// Distance units per CSS pixel of halo (MapLibre's `SDF_PX`).
    static let unitsPerPixel = 8.0
    /// MapLibre's `EDGE_GAMMA` at a device pixel ratio of 1.
    static let edgeGamma = 0.105

    /// Most pixels of a coloured icon: a larger one is coloured at the sprite's resolution and
    /// scaled as it is drawn.
    static let maxPixels = 1024 * 1024

    /// `field` coloured with `paint`, premultiplied, `scale` times the field's size (rounded to
    /// whole pixels; see `maxPixels`).
    static func colored(_ field: RasterImage, _ paint: Paint, scale: Double) throws(CairoError) -> RasterImage {
        var width = max(1, Int((Double(field.width) * scale).rounded()))
        var height = max(1, Int((Double(field.height) * scale).rounded()))
        if !scale.isFinite || scale <= 0 || Double(width) * Double(height) > Double(maxPixels) {
            (width, height) = (field.width, field.height)
        }
        let scale = max(paint.size, 1e-6)
        let gamma = edgeGamma / max(paint.pixelRatio, 1e-6) / scale
        let fill = (low: edge - gamma, high: edge + gamma)
        var halo: (low: Double, high: Double)?
        if let color = paint.halo, color.a > 0, paint.haloWidth > 0 {
            let buffer = (6 - paint.haloWidth / scale) / unitsPerPixel
            let haloGamma = (paint.haloBlur * 1.19 / unitsPerPixel + edgeGamma / max(paint.pixelRatio, 1e-6)) / scale
            halo = (buffer - haloGamma, buffer + haloGamma)
        }
        let image = try RasterImage(width: width, height: height)
        let (sx, sy) = (Double(field.width) / Double(width), Double(field.height) / Double(height))
        field.withPixels { source, sourceWords in
            // The field's alpha at (x, y) in its pixels, bilinear between pixel centres, edges held.
            func distance(_ x: Double, _ y: Double) -> Double {
                let fx = min(max(x - 0.5, 0), Double(field.width - 1)), fy = min(max(y - 0.5, 0), Double(field.height - 1))
                let x0 = Int(fx), y0 = Int(fy), x1 = min(x0 + 1, field.width - 1), y1 = min(y0 + 1, field.height - 1)
                let tx = fx - Double(x0), ty = fy - Double(y0)
                func a(_ x: Int, _ y: Int) -> Double { Double(source[y * sourceWords + x] >> 24) / 255 }
                return (a(x0, y0) * (1 - tx) + a(x1, y0) * tx) * (1 - ty) + (a(x0, y1) * (1 - tx) + a(x1, y1) * tx) * ty
            }
            image.withMutablePixels { target, targetWords in
                for y in 0..<height {
                    for x in 0..<width {
                        let distance = distance((Double(x) + 0.5) * sx, (Double(y) + 0.5) * sy)
                        let inside = smoothstep(fill.low, fill.high, distance) * paint.color.a
                        let around = halo.map { smoothstep($0.low, $0.high, distance) * paint.halo!.a } ?? 0
                        target[y * targetWords + x] = premultipliedOver(paint.color, inside, paint.halo, around)
                    }
                }
            }
        }
        return image
    }

    /// GLSL's smoothstep: 0 below `low`, 1 above `high`, a cubic between.
    static func smoothstep(_ low: Double, _ high: Double, _ x: Double) -> Double {
        guard high > low else { return x < low ? 0 : 1 }
        let t = min(1, max(0, (x - low) / (high - low)))
        return t * t * (3 - 2 * t)
    }

    /// `color` at coverage `inside` over `halo` at coverage `around`, as a premultiplied ARGB word.
    private static func premultipliedOver(_ color: PaintColor, _ inside: Double, _ halo: PaintColor?, _ around: Double) -> UInt32 {
        let under = halo ?? color
        let rest = around * (1 - inside)
        let a = inside + rest
        func channel(_ top: Double, _ bottom: Double) -> UInt32 {
            UInt32(max(0, min(255, ((top * inside + bottom * rest) * 255).rounded())))
        }
        let alpha = UInt32(max(0, min(255, (a * 255).rounded())))
        return alpha << 24 | channel(color.r, under.r) << 16 | channel(color.g, under.g) << 8 | channel(color.b, under.b)
    }
}
