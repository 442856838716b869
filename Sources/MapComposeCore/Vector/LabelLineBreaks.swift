import MapLibreStyleSpec

/// Where MapLibre breaks a point label's text into lines (`text-max-width`): not as far along
/// each line as it goes, but into lines of about equal length. The line count is the total
/// advance over the width, rounded up; of the places a line may end (after a space, a hyphen,
/// a slash and the like, before an opening parenthesis, between ideographs, and at every line
/// break, where it must), the set whose lines stray least from the average length is taken: the
/// squares of each line's difference from it summed, a last line longer than the average
/// counting double and a shorter one half, with small penalties for a line ending on an opening
/// parenthesis or starting with a closing one.
enum LabelLineBreaks {
    /// The most characters a text may have for its breaks to be chosen so (the choice takes
    /// time growing with the square of the places a line may end); a longer one is wrapped
    /// line by line.
    static let maxCharacters = 1_000

    /// `text` with its lines broken as MapLibre breaks them for lines of at most about
    /// `maxWidth` pixels (each line's white space trimmed, lines joined by "\n"); `advance`
    /// gives each character's advance in pixels. Text that fits on one line, or a width that
    /// is not positive, leaves the text as it is; nil for text of more than `maxCharacters`.
    static func broken(_ text: String, maxWidth: Double, advance: (_ index: Int) -> Double) -> String? {
        let characters = Array(text.unicodeScalars)
        guard characters.count <= maxCharacters else { return nil }
        guard maxWidth > 0, maxWidth.isFinite, characters.count > 1 else { return text }
        let advances = characters.indices.map { max(0, advance($0)) }
        let total = advances.reduce(0, +)
        guard total.isFinite, total > maxWidth || characters.contains("\n") else { return text }
        let target = total / max(1, (total / maxWidth).rounded(.up))
        let suggestsBreaks = characters.contains("\u{200B}")

        /// A place a line may end: before character `index`, `x` pixels in, with the least
        /// badness of the lines up to it and the break before those.
        struct Break {
            let index: Int
            let x: Double
            let prior: Int?
            let badness: Double
        }
        func badness(_ width: Double, _ penalty: Double, last: Bool) -> Double {
            let raggedness = (width - target) * (width - target)
            if last { return width < target ? raggedness / 2 : raggedness * 2 }
            return raggedness + abs(penalty) * penalty
        }
        func evaluate(_ index: Int, x: Double, penalty: Double, last: Bool, after breaks: [Break]) -> Break {
            var best = Break(index: index, x: x, prior: nil, badness: badness(x, penalty, last: last))
            for (position, earlier) in breaks.enumerated() {
                let total = badness(x - earlier.x, penalty, last: last) + earlier.badness
                if total <= best.badness { best = Break(index: index, x: x, prior: position, badness: total) }
            }
            return best
        }
        var breaks: [Break] = []
        var x = 0.0
        for (i, character) in characters.enumerated() {
            if !whitespace.contains(character) { x += advances[i] }
            guard i < characters.count - 1 else { continue }
            let next = characters[i + 1]
            let ideographic = allowsIdeographicBreaking(character)
            guard breakableAfter.contains(character) || ideographic
                    || (i != characters.count - 2 && next == "(") else { continue }
            var penalty = 0.0
            if character == "\n" { penalty -= 10_000 }
            if ideographic, suggestsBreaks { penalty += 150 }
            if character == "(" || character == "\u{FF08}" { penalty += 50 }
            if next == ")" || next == "\u{FF09}" { penalty += 50 }
            breaks.append(evaluate(i + 1, x: x, penalty: penalty, last: false, after: breaks))
        }
        var chosen: [Int] = []
        var position = evaluate(characters.count, x: x, penalty: 0, last: true, after: breaks).prior
        while let index = position {
            chosen.append(breaks[index].index)
            position = breaks[index].prior
        }
        var lines: [String] = []
        var start = 0
        for end in chosen.reversed() + [characters.count] {
            var line = String(String.UnicodeScalarView(characters[start..<end]))
            line = String(line.trimmingWhiteSpace)
            lines.append(line)
            start = end
        }
        return lines.joined(separator: "\n")
    }

    /// White space, which takes no room at the end of a line.
    private static let whitespace: Set<Unicode.Scalar> = ["\t", "\n", "\u{0B}", "\u{0C}", "\r", " "]

    /// Characters a line may end after.
    private static let breakableAfter: Set<Unicode.Scalar> = [
        "\n", " ", "&", ")", "+", "-", "/", "\u{AD}", "\u{B7}", "\u{200B}", "\u{2010}", "\u{2013}", "\u{2027}",
    ]

    /// True for characters of scripts written without spaces between words, after any of which
    /// a line may end: ideographs, kana, bopomofo, Yi and their punctuation (not hangul).
    static func allowsIdeographicBreaking(_ character: Unicode.Scalar) -> Bool {
        let v = character.value
        guard v >= 0x2E80 else { return false }
        return ideographicBlocks.contains { $0.contains(v) }
    }

    private static let ideographicBlocks: [ClosedRange<UInt32>] = [
        0x2E80...0x2FDF,  // CJK Radicals Supplement, Kangxi Radicals
        0x2FF0...0x30FF,  // Ideographic Description Characters, CJK Symbols and Punctuation, Hiragana, Katakana
        0x3100...0x312F,  // Bopomofo
        0x31A0...0x31FF,  // Bopomofo Extended, CJK Strokes, Katakana Phonetic Extensions
        0x3200...0x4DBF,  // Enclosed CJK Letters and Months, CJK Compatibility, CJK Extension A
        0x4E00...0x9FFF,  // CJK Unified Ideographs
        0xA000...0xA4CF,  // Yi
        0xF900...0xFAFF,  // CJK Compatibility Ideographs
        0xFE10...0xFE1F,  // Vertical Forms
        0xFE30...0xFE4F,  // CJK Compatibility Forms
        0xFF00...0xFFEF,  // Halfwidth and Fullwidth Forms
        0x17000...0x18AFF,  // Tangut
        0x1B000...0x1B2FF,  // Kana Supplement and Extended, Nushu
        0x20000...0x3FFFF,  // CJK Extensions B and after
    ]
}
