import Foundation

/// The blending and compositing formulas of W3C Compositing and Blending Level 1
/// (https://www.w3.org/TR/compositing-1/), written out from the specification so renders can
/// be checked against them. Colours are straight (not premultiplied) 0…1 triples.
enum W3CBlendFormulas {
    typealias Color = (r: Double, g: Double, b: Double)

    /// The specification's blend-mode keywords (CSS `mix-blend-mode` names; `normal` is
    /// spelled `src-over` as in Cairo and the style format).
    static let names = ["src-over", "multiply", "screen", "overlay", "darken", "lighten", "color-dodge",
                        "color-burn", "hard-light", "soft-light", "difference", "exclusion", "hue",
                        "saturation", "color", "luminosity"]

    /// B(Cb, Cs) for the blend mode `name`, or nil for a name the specification does not define.
    static func blend(_ name: String) -> ((_ backdrop: Color, _ source: Color) -> Color)? {
        if let separable = separable(name) {
            return { cb, cs in (separable(cb.r, cs.r), separable(cb.g, cs.g), separable(cb.b, cs.b)) }
        }
        switch name {
        case "hue": return { cb, cs in setLum(setSat(cs, sat(cb)), lum(cb)) }
        case "saturation": return { cb, cs in setLum(setSat(cb, sat(cs)), lum(cb)) }
        case "color": return { cb, cs in setLum(cs, lum(cb)) }
        case "luminosity": return { cb, cs in setLum(cb, lum(cs)) }
        default: return nil
        }
    }

    // MARK: separable modes (§ 10.1)

    /// The per-channel B(cb, cs) of a separable mode.
    static func separable(_ name: String) -> ((_ cb: Double, _ cs: Double) -> Double)? {
        switch name {
        case "src-over": return { _, cs in cs }
        case "multiply": return multiply
        case "screen": return screen
        case "overlay": return { cb, cs in hardLight(cs, cb) }
        case "darken": return { cb, cs in min(cb, cs) }
        case "lighten": return { cb, cs in max(cb, cs) }
        case "color-dodge": return colorDodge
        case "color-burn": return colorBurn
        case "hard-light": return hardLight
        case "soft-light": return softLight
        case "difference": return { cb, cs in abs(cb - cs) }
        case "exclusion": return { cb, cs in cb + cs - 2 * cb * cs }
        default: return nil
        }
    }

    static func multiply(_ cb: Double, _ cs: Double) -> Double { cb * cs }

    static func screen(_ cb: Double, _ cs: Double) -> Double { cb + cs - cb * cs }

    static func hardLight(_ cb: Double, _ cs: Double) -> Double {
        cs <= 0.5 ? multiply(cb, 2 * cs) : screen(cb, 2 * cs - 1)
    }

    static func colorDodge(_ cb: Double, _ cs: Double) -> Double {
        if cb == 0 { return 0 }
        if cs == 1 { return 1 }
        return min(1, cb / (1 - cs))
    }

    static func colorBurn(_ cb: Double, _ cs: Double) -> Double {
        if cb == 1 { return 1 }
        if cs == 0 { return 0 }
        return 1 - min(1, (1 - cb) / cs)
    }

    static func softLight(_ cb: Double, _ cs: Double) -> Double {
        if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
        return cb + (2 * cs - 1) * (softLightD(cb) - cb)
    }

    /// D(Cb) of soft-light.
    static func softLightD(_ cb: Double) -> Double {
        cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
    }

    // MARK: non-separable modes (§ 10.2)

    static func lum(_ c: Color) -> Double { 0.3 * c.r + 0.59 * c.g + 0.11 * c.b }

    static func clipColor(_ c: Color) -> Color {
        let l = lum(c), n = min(c.r, c.g, c.b), x = max(c.r, c.g, c.b)
        var c = c
        if n < 0 { c = (l + (c.r - l) * l / (l - n), l + (c.g - l) * l / (l - n), l + (c.b - l) * l / (l - n)) }
        if x > 1 { c = (l + (c.r - l) * (1 - l) / (x - l), l + (c.g - l) * (1 - l) / (x - l), l + (c.b - l) * (1 - l) / (x - l)) }
        return c
    }

    static func setLum(_ c: Color, _ l: Double) -> Color {
        let d = l - lum(c)
        return clipColor((c.r + d, c.g + d, c.b + d))
    }

    static func sat(_ c: Color) -> Double { max(c.r, c.g, c.b) - min(c.r, c.g, c.b) }

    /// SetSat: the largest channel becomes `s`, the smallest 0 and the middle one keeps its
    /// place between them (all 0 when the colour is grey).
    static func setSat(_ c: Color, _ s: Double) -> Color {
        var channels = [c.r, c.g, c.b]
        let order = channels.indices.sorted { channels[$0] < channels[$1] }
        let (lo, mid, hi) = (order[0], order[1], order[2])
        if channels[hi] > channels[lo] {
            channels[mid] = (channels[mid] - channels[lo]) * s / (channels[hi] - channels[lo])
            channels[hi] = s
        } else {
            channels[mid] = 0
            channels[hi] = 0
        }
        channels[lo] = 0
        return (channels[0], channels[1], channels[2])
    }

    // MARK: compositing (§ 5.1, § 9.1)

    /// A source of colour `cs` and alpha `alphaS` (the layer's alpha times its opacity) blended
    /// with `blend` and composited source-over onto a backdrop of colour `cb` and alpha
    /// `alphaB`: the premultiplied result colour and its alpha.
    ///
    /// Cs' = (1 − αb)·Cs + αb·B(Cb, Cs); co = αs·Cs' + αb·Cb·(1 − αs); αo = αs + αb·(1 − αs).
    static func composite(backdrop cb: Color, alphaB: Double, source cs: Color, alphaS: Double,
                          blend: (Color, Color) -> Color) -> (premultiplied: Color, alpha: Double) {
        let mixed = blend(cb, cs)
        func channel(_ b: Double, _ s: Double, _ m: Double) -> Double {
            let blended = (1 - alphaB) * s + alphaB * m
            return alphaS * blended + alphaB * b * (1 - alphaS)
        }
        return ((channel(cb.r, cs.r, mixed.r), channel(cb.g, cs.g, mixed.g), channel(cb.b, cs.b, mixed.b)),
                alphaS + alphaB * (1 - alphaS))
    }
}
