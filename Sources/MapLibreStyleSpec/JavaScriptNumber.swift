/// Number ↔ text conversions that follow JavaScript, as the expression language's string
/// operators (`to-string`, `concat`, `to-number`) are defined by it.
enum JavaScriptNumber {
    /// `String(d)` in JavaScript: shortest round-trip digits, integers without ".0",
    /// exponent form below 1e-6 and from 1e21.
    static func string(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        if d == 0 { return "0" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        let text = abs(d).description
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        var intPart = mantissa
        var fracPart: Substring = ""
        if let dot = mantissa.firstIndex(of: ".") {
            intPart = mantissa[..<dot]
            fracPart = mantissa[mantissa.index(after: dot)...]
        }
        var digits = Array(intPart + fracPart)
        var n = intPart.count + exponent
        while digits.first == "0" { digits.removeFirst(); n -= 1 }
        while digits.last == "0" { digits.removeLast() }
        let k = digits.count
        var out = d < 0 ? "-" : ""
        if k <= n && n <= 21 {
            out += String(digits) + String(repeating: "0", count: n - k)
        } else if 0 < n && n <= 21 {
            out += String(digits[0..<n]) + "." + String(digits[n...])
        } else if -6 < n && n <= 0 {
            out += "0." + String(repeating: "0", count: -n) + String(digits)
        } else {
            let e = n - 1
            out += String(digits[0])
            if k > 1 { out += "." + String(digits[1...]) }
            out += "e" + (e < 0 ? "-" : "+") + String(abs(e))
        }
        return out
    }

    /// The shortest round-trip digits of a finite non-negative number, without exponent.
    static func plainDecimal(_ d: Double) -> String {
        let js = string(d)
        guard let e = js.firstIndex(of: "e") else { return js }
        let mantissa = js[..<e].replacingOccurrences(of: ".", with: "")
        let exponent = Int(js[js.index(after: e)...]) ?? 0
        let pointAt = (js[..<e].firstIndex(of: ".").map { js.distance(from: js.startIndex, to: $0) } ?? js.distance(from: js.startIndex, to: e)) + exponent
        if pointAt <= 0 { return "0." + String(repeating: "0", count: -pointAt) + mantissa }
        if pointAt >= mantissa.count { return mantissa + String(repeating: "0", count: pointAt - mantissa.count) }
        let i = mantissa.index(mantissa.startIndex, offsetBy: pointAt)
        return String(mantissa[..<i]) + "." + String(mantissa[i...])
    }

    /// `Number(s)` in JavaScript for a string: trimmed decimal, `Infinity`, or 0x/0o/0b
    /// integers; empty is 0; anything else NaN.
    static func parse(_ s: String) -> Double {
        let t = String(s.trimmingWhiteSpace)
        if t.isEmpty { return 0 }
        switch t {
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: break
        }
        let lower = t.lowercased()
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where lower.hasPrefix(prefix) {
            let body = lower.dropFirst(2)
            guard !body.isEmpty, body.allSatisfy({ $0.isHexDigit && Int(String($0), radix: radix) != nil }) else {
                return .nan
            }
            var v = 0.0
            for c in body { v = v * Double(radix) + Double(Int(String(c), radix: radix)!) }
            return v
        }
        // Only a decimal literal: digits, one point, an exponent.
        var sawDigit = false, sawPoint = false, sawExp = false
        var prev: Character = " "
        for (i, c) in t.enumerated() {
            switch c {
            case "0"..."9": sawDigit = true
            case ".": if sawPoint || sawExp { return .nan }; sawPoint = true
            case "e", "E": if sawExp || !sawDigit { return .nan }; sawExp = true
            case "+", "-": if !(i == 0 || prev == "e" || prev == "E") { return .nan }
            default: return .nan
            }
            prev = c
        }
        if !sawDigit || prev == "e" || prev == "E" || prev == "+" || prev == "-" { return .nan }
        return Double(t) ?? .nan
    }
}

import Foundation
