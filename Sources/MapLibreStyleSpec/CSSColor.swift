import Foundation

/// Parsing of CSS color strings into unpremultiplied [0, 1] channels, following the
/// css-color-4 grammar as MapLibre accepts it.
enum CSSColor {
    private static let number = #"([\de.+-]+)"#
    private static let separator = #"(?:\s+|\s*(,)\s*)"#
    private static let alpha = #"(?:\s*([,/])\s*([\de.+-]+)(%)?)?\s*\)$"#
    private static let rgbPattern = try! NSRegularExpression(
        pattern: #"^rgba?\(\s*"# + number + "(%)?" + separator + number + "(%)?" + separator + number + "(%)?" + alpha)
    private static let hslPattern = try! NSRegularExpression(
        pattern: #"^hsla?\(\s*"# + number + "(?:deg)?" + separator + number + "%" + separator + number + "%" + alpha)

    static func parse(_ input: String) -> (Double, Double, Double, Double)? {
        let text = String(input.lowercased().trimmingWhiteSpace)
        if text == "transparent" { return (0, 0, 0, 0) }
        if let (r, g, b) = NamedColors.table[text] {
            return (Double(r) / 255, Double(g) / 255, Double(b) / 255, 1)
        }
        if text.hasPrefix("#") { return parseHex(text.dropFirst()) }
        if text.hasPrefix("rgb") {
            guard let m = groups(rgbPattern, text) else { return nil }
            // m: r rp f1 g gp f2 b bp f3 a ap
            guard validSeparators(m[2], m[5], m[8]) else { return nil }
            let percents = (m[1] ?? "") + (m[4] ?? "") + (m[7] ?? "")
            let maxValue: Double = percents == "%%%" ? 100 : percents.isEmpty ? 255 : 0
            if maxValue == 0 { return nil }
            let c = (clamp(js(m[0]) / maxValue), clamp(js(m[3]) / maxValue), clamp(js(m[6]) / maxValue),
                     m[9] != nil ? alphaValue(m[9], m[10]) : 1)
            if c.0.isNaN || c.1.isNaN || c.2.isNaN || c.3.isNaN { return nil }
            return c
        }
        if let m = groups(hslPattern, text) {
            // m: h f1 s f2 l f3 a ap
            guard validSeparators(m[1], m[3], m[5]) else { return nil }
            let hsl = [js(m[0]), min(max(js(m[2]), 0), 100), min(max(js(m[4]), 0), 100),
                       m[6] != nil ? alphaValue(m[6], m[7]) : 1]
            if hsl.contains(where: \.isNaN) { return nil }
            let c = ColorSpaces.hslToRgb(hsl)
            return (c[0], c[1], c[2], c[3])
        }
        return nil
    }

    /// `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa` (after the `#`): ASCII hexadecimal digits only.
    private static func parseHex(_ hex: Substring) -> (Double, Double, Double, Double)? {
        var digits: [UInt8] = []
        for byte in hex.utf8 {
            guard digits.count < 8, let digit = hexDigit(byte) else { return nil }
            digits.append(digit)
        }
        let step: Int
        switch digits.count {
        case 3, 4: step = 1
        case 6, 8: step = 2
        default: return nil
        }
        func channel(_ i: Int) -> Double {
            guard i * step < digits.count else { return 1 }
            let value = step == 1 ? digits[i] * 17 : digits[2 * i] * 16 + digits[2 * i + 1]
            return Double(value) / 255
        }
        return (channel(0), channel(1), channel(2), channel(3))
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Either all separators are spaces (with an optional slash before alpha) or all commas.
    private static func validSeparators(_ f1: String?, _ f2: String?, _ f3: String?) -> Bool {
        let format = (f1 ?? " ") + (f2 ?? " ") + (f3 ?? "")
        return format == "  " || format == "  /" || format == ",," || format == ",,,"
    }

    private static func groups(_ re: NSRegularExpression, _ text: String) -> [String?]? {
        let ns = text as NSString
        guard let m = re.firstMatch(in: text, range: NSRange(location: 0, length: ns.length)) else { return nil }
        return (1..<m.numberOfRanges).map { i in
            let r = m.range(at: i)
            return r.location == NSNotFound ? nil : ns.substring(with: r)
        }
    }

    private static func js(_ s: String?) -> Double { JavaScriptNumber.parse(s ?? "") }

    private static func clamp(_ v: Double) -> Double { v.isNaN ? v : min(max(v, 0), 1) }

    private static func alphaValue(_ a: String?, _ percent: String?) -> Double {
        let v = js(a)
        return clamp(percent != nil ? v / 100 : v)
    }
}
