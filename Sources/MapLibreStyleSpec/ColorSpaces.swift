import Foundation

/// Conversions between sRGB and CIELAB / CIELCh (HCL) with the D50 white point, the
/// formulas of d3-color that MapLibre's `interpolate-lab` and `interpolate-hcl` use.
/// Arrays are [r, g, b, alpha], [l, a, b, alpha] and [h, c, l, alpha].
enum ColorSpaces {
    private static let xn = 0.96422, yn = 1.0, zn = 0.82521
    private static let t0 = 4.0 / 29, t1 = 6.0 / 29
    private static let t2 = 3 * t1 * t1, t3 = t1 * t1 * t1

    static func rgbToLab(_ c: [Double]) -> [Double] {
        let r = toLinear(c[0]), g = toLinear(c[1]), b = toLinear(c[2])
        let y = labF((0.2225045 * r + 0.7168786 * g + 0.0606169 * b) / yn)
        let x: Double, z: Double
        if r == g && g == b {
            x = y; z = y
        } else {
            x = labF((0.4360747 * r + 0.3850649 * g + 0.1430804 * b) / xn)
            z = labF((0.0139322 * r + 0.0971045 * g + 0.7141733 * b) / zn)
        }
        let l = 116 * y - 16
        return [l < 0 ? 0 : l, 500 * (x - y), 200 * (y - z), c[3]]
    }

    static func labToRgb(_ c: [Double]) -> [Double] {
        var y = (c[0] + 16) / 116
        var x = c[1].isNaN ? y : y + c[1] / 500
        var z = c[2].isNaN ? y : y - c[2] / 200
        y = yn * labFInverse(y)
        x = xn * labFInverse(x)
        z = zn * labFInverse(z)
        return [
            toGamma(3.1338561 * x - 1.6168667 * y - 0.4906146 * z),
            toGamma(-0.9787684 * x + 1.9161415 * y + 0.0334540 * z),
            toGamma(0.0719453 * x - 0.2289914 * y + 1.4052427 * z),
            c[3],
        ]
    }

    static func rgbToHcl(_ rgb: [Double]) -> [Double] {
        let lab = rgbToLab(rgb)
        let c = (lab[1] * lab[1] + lab[2] * lab[2]).squareRoot()
        let h = (c * 10000).rounded(.toNearestOrAwayFromZero) != 0 ? constrainAngle(atan2(lab[2], lab[1]) * 180 / .pi) : .nan
        return [h, c, lab[0], lab[3]]
    }

    static func hclToRgb(_ hcl: [Double]) -> [Double] {
        let h = hcl[0].isNaN ? 0 : hcl[0] * .pi / 180
        return labToRgb([hcl[2], cos(h) * hcl[1], sin(h) * hcl[1], hcl[3]])
    }

    /// HSL (hue in degrees, saturation and lightness in percent) to sRGB.
    static func hslToRgb(_ hsl: [Double]) -> [Double] {
        let h = constrainAngle(hsl[0]), s = hsl[1] / 100, l = hsl[2] / 100
        func f(_ n: Double) -> Double {
            let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
            let a = s * min(l, 1 - l)
            return l - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return [f(0), f(8), f(4), hsl[3]]
    }

    static func constrainAngle(_ angle: Double) -> Double {
        let a = angle.truncatingRemainder(dividingBy: 360)
        return a < 0 ? a + 360 : a
    }

    private static func toLinear(_ x: Double) -> Double {
        x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
    }

    private static func toGamma(_ v: Double) -> Double {
        let x = v <= 0.00304 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
        return x < 0 ? 0 : x > 1 ? 1 : x
    }

    private static func labF(_ t: Double) -> Double { t > t3 ? pow(t, 1.0 / 3) : t / t2 + t0 }

    private static func labFInverse(_ t: Double) -> Double { t > t1 ? t * t * t : t2 * (t - t0) }
}
