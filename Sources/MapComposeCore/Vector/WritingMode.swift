/// How a point label's text runs (`text-writing-mode`): left to right in lines, or top to
/// bottom in columns, as Chinese, Japanese and Korean may be written.
enum WritingMode: String, Sendable {
    case horizontal, vertical

    /// The modes `names` list, in the order tried, for `text`: vertical only where the text has
    /// a character written upright in vertical text (MapLibre's rule: the value is a hint, and
    /// "Tokyo" stays horizontal whatever it asks); horizontal when nothing else is left.
    static func modes(_ names: [String], for text: String) -> [WritingMode] {
        var modes: [WritingMode] = []
        for mode in names.compactMap(WritingMode.init(rawValue:)) where !modes.contains(mode) {
            if mode == .vertical, !allowsVertical(text) { continue }
            modes.append(mode)
        }
        return modes.isEmpty ? [.horizontal] : modes
    }

    /// True when `text` has a character that stands upright in vertical text: CJK ideographs,
    /// kana, hangul, bopomofo, Yi, CJK symbols and punctuation, full-width forms (Unicode's
    /// Vertical_Orientation U, by block).
    static func allowsVertical(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in uprightBlocks.contains { $0.contains(scalar.value) } }
    }

    /// The blocks whose characters are written upright in vertical text.
    private static let uprightBlocks: [ClosedRange<UInt32>] = [
        0x1100...0x11FF,  // Hangul Jamo
        0x2E80...0x2FDF,  // CJK Radicals Supplement, Kangxi Radicals
        0x2FF0...0x303F,  // Ideographic Description Characters, CJK Symbols and Punctuation
        0x3040...0x31FF,  // Hiragana, Katakana, Bopomofo, Hangul Compatibility Jamo, Kanbun, CJK Strokes
        0x3200...0x4DBF,  // Enclosed CJK Letters and Months, CJK Compatibility, CJK Extension A
        0x4E00...0x9FFF,  // CJK Unified Ideographs
        0xA000...0xA4CF,  // Yi Syllables and Radicals
        0xA960...0xA97F,  // Hangul Jamo Extended-A
        0xAC00...0xD7FF,  // Hangul Syllables, Hangul Jamo Extended-B
        0xF900...0xFAFF,  // CJK Compatibility Ideographs
        0xFE10...0xFE1F,  // Vertical Forms
        0xFE30...0xFE6F,  // CJK Compatibility Forms, Small Form Variants
        0xFF00...0xFFEF,  // Halfwidth and Fullwidth Forms
        0x16FE0...0x18AFF,  // Ideographic Symbols, Tangut
        0x1B000...0x1B16F,  // Kana Supplement, Kana Extended-A, Small Kana Extension
        0x20000...0x3FFFF,  // CJK Extensions B and after
    ]
}
