import Foundation

/// An 8-bit straight-alpha colour.
public struct RGBA: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// Unpacks a Cairo ARGB32 premultiplied word.
    public init(premultipliedARGB word: UInt32) {
        let a = UInt8(word >> 24)
        func channel(_ shift: UInt32) -> UInt8 {
            let v = (word >> shift) & 0xFF
            guard a != 0 else { return 0 }
            return UInt8(min(255, (v * 255 + UInt32(a) / 2) / UInt32(a)))
        }
        self.init(r: channel(16), g: channel(8), b: channel(0), a: a)
    }

    /// Packs the colour as a Cairo ARGB32 premultiplied word.
    public var premultipliedARGB: UInt32 {
        let alpha = UInt32(a)
        func premultiply(_ c: UInt8) -> UInt32 { (UInt32(c) * alpha + 127) / 255 }
        return alpha << 24 | premultiply(r) << 16 | premultiply(g) << 8 | premultiply(b)
    }

    public static let transparent = RGBA(r: 0, g: 0, b: 0, a: 0)
    public static let black = RGBA(r: 0, g: 0, b: 0)
    public static let white = RGBA(r: 255, g: 255, b: 255)

    /// The colour with its alpha multiplied by `factor` (0…1).
    public func multiplyingAlpha(by factor: Double) -> RGBA {
        RGBA(r: r, g: g, b: b, a: UInt8((Double(a) * min(max(factor, 0), 1)).rounded()))
    }

    /// The colour with its red, green and blue scaled towards black by `amount` (0…1).
    public func darkened(by amount: Double) -> RGBA {
        func channel(_ c: UInt8) -> UInt8 { UInt8((Double(c) * (1 - min(max(amount, 0), 1))).rounded()) }
        return RGBA(r: channel(r), g: channel(g), b: channel(b), a: a)
    }

    /// Black or white, whichever reads better on this colour.
    public var contrastingText: RGBA {
        0.299 * Double(r) + 0.587 * Double(g) + 0.114 * Double(b) > 160 ? .black : .white
    }

    /// Components as 0…1 doubles for Cairo.
    public var components: (r: Double, g: Double, b: Double, a: Double) {
        (Double(r) / 255, Double(g) / 255, Double(b) / 255, Double(a) / 255)
    }

    /// Parses `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` or a few CSS names; nil otherwise.
    public init?(parsing text: String) {
        let named: [String: String] = [
            "black": "#000000", "white": "#ffffff", "red": "#ff0000", "green": "#008000",
            "blue": "#0000ff", "yellow": "#ffff00", "gray": "#808080", "grey": "#808080",
            "orange": "#ffa500", "transparent": "#00000000",
        ]
        var hex = text.trimmingSpaces.lowercased()
        if let mapped = named[hex] { hex = mapped }
        guard hex.hasPrefix("#") else { return nil }
        hex.removeFirst()
        // Only ASCII digits count: Character.isHexDigit also accepts full-width ones ("Ｆ").
        var digits: [UInt8] = []
        for unit in hex.utf8 {
            guard let digit = Self.hexValue(unit) else { return nil }
            digits.append(digit)
        }
        if digits.count == 3 || digits.count == 4 {
            digits = digits.flatMap { [$0, $0] }
        }
        guard digits.count == 6 || digits.count == 8 else { return nil }
        func byte(_ i: Int) -> UInt8 { digits[i] << 4 | digits[i + 1] }
        self.init(r: byte(0), g: byte(2), b: byte(4), a: digits.count == 8 ? byte(6) : 255)
    }

    /// The value of one ASCII hex digit, or nil for any other byte.
    private static func hexValue(_ unit: UInt8) -> UInt8? {
        switch unit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return unit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return unit - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// `#rrggbbaa` in lower-case hex.
    public var description: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "#")]
        for channel in [r, g, b, a] {
            text.append(digits[Int(channel >> 4)])
            text.append(digits[Int(channel & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
