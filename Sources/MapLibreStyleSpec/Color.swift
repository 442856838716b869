import Foundation

/// An RGBA color with components in 0...1, stored premultiplied by alpha as MapLibre does
/// for output; `unpremultiplied` gives the components back as written.
public struct Color: Sendable, Equatable {
    /// Premultiplied red, green, blue and alpha.
    public let r: Double, g: Double, b: Double, a: Double
    /// Red, green, blue divided by alpha again (or as written, where alpha is 0).
    public let unpremultiplied: (r: Double, g: Double, b: Double)

    /// A color from components; `premultiplied: false` multiplies red, green and blue by alpha.
    public init(r: Double, g: Double, b: Double, a: Double = 1, premultiplied: Bool = true) {
        if premultiplied {
            self.r = r; self.g = g; self.b = b; self.a = a
            let f = (a == 0 || a.isNaN) ? Double.infinity : a
            unpremultiplied = (r / f, g / f, b / f)
        } else {
            self.r = r * a; self.g = g * a; self.b = b * a; self.a = a
            if a == 0 || a.isNaN {
                unpremultiplied = (r, g, b)
            } else {
                unpremultiplied = (self.r / a, self.g / a, self.b / a)
            }
        }
    }

    public static let black = Color(r: 0, g: 0, b: 0, a: 1)
    public static let transparent = Color(r: 0, g: 0, b: 0, a: 0)

    /// Parses a CSS color string (named colors, #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(), rgba(),
    /// hsl(), hsla()); nil where it is not one.
    public static func parse(_ text: String) -> Color? {
        guard let c = CSSColor.parse(text) else { return nil }
        return Color(r: c.0, g: c.1, b: c.2, a: c.3, premultiplied: false)
    }

    /// Unpremultiplied red, green, blue and alpha (the `rgb` of MapLibre's colors).
    public var rgba: [Double] { [unpremultiplied.r, unpremultiplied.g, unpremultiplied.b, a] }

    /// `rgba(r,g,b,a)` with 0...255 channels, as `to-string` writes colors.
    public var cssString: String {
        let c = [unpremultiplied.r, unpremultiplied.g, unpremultiplied.b].map { JavaScriptNumber.string(($0 * 255).rounded(.toNearestOrAwayFromZero)) }
        return "rgba(\(c[0]),\(c[1]),\(c[2]),\(JavaScriptNumber.string(a)))"
    }

    public static func == (x: Color, y: Color) -> Bool {
        x.r == y.r && x.g == y.g && x.b == y.b && x.a == y.a
    }

    /// The color a fraction `t` of the way from `from` to `to`, in RGB, HCL or CIELAB.
    public static func interpolate(_ from: Color, _ to: Color, _ t: Double, space: ColorSpace = .rgb) -> Color {
        switch space {
        case .rgb:
            let f = from.unpremultiplied, e = to.unpremultiplied
            return Color(r: lerp(f.r, e.r, t), g: lerp(f.g, e.g, t), b: lerp(f.b, e.b, t),
                         a: lerp(from.a, to.a, t), premultiplied: false)
        case .lab:
            let f = ColorSpaces.rgbToLab(from.rgba), e = ColorSpaces.rgbToLab(to.rgba)
            let c = ColorSpaces.labToRgb(zip(f, e).map { lerp($0, $1, t) })
            return Color(r: c[0], g: c[1], b: c[2], a: c[3], premultiplied: false)
        case .hcl:
            let f = ColorSpaces.rgbToHcl(from.rgba), e = ColorSpaces.rgbToHcl(to.rgba)
            let (h0, c0, l0) = (f[0], f[1], f[2]), (h1, c1, l1) = (e[0], e[1], e[2])
            var hue: Double
            var chroma: Double?
            if !h0.isNaN && !h1.isNaN {
                var dh = h1 - h0
                if h1 > h0 && dh > 180 { dh -= 360 } else if h1 < h0 && h0 - h1 > 180 { dh += 360 }
                hue = h0 + t * dh
            } else if !h0.isNaN {
                hue = h0
                if l1 == 1 || l1 == 0 { chroma = c0 }
            } else if !h1.isNaN {
                hue = h1
                if l0 == 1 || l0 == 0 { chroma = c1 }
            } else {
                hue = .nan
            }
            let c = ColorSpaces.hclToRgb([hue, chroma ?? lerp(c0, c1, t), lerp(l0, l1, t), lerp(f[3], e[3], t)])
            return Color(r: c[0], g: c[1], b: c[2], a: c[3], premultiplied: false)
        }
    }
}

/// The space colors are interpolated in.
public enum ColorSpace: Sendable {
    case rgb, hcl, lab
}

@inline(__always) func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + t * (b - a) }
