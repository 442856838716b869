/// Text with at most 30 combining marks in a row, the limit of Unicode's stream-safe text
/// format (UAX #15): marks past it are left out. Real text never has so many on one letter;
/// text made to stack thousands on one letter would stall shaping, whose cost grows with the
/// square of the marks on a letter.
enum StreamSafeText {
    /// The most combining marks (canonical combining class other than 0) kept in a row.
    static let maximumMarks = 30

    /// `text` with each run of combining marks cut to `maximumMarks`; `text` itself when no run
    /// is longer.
    static func limited(_ text: String) -> String {
        var run = 0, cut = false
        for scalar in text.unicodeScalars {
            run = isMark(scalar) ? run + 1 : 0
            if run > maximumMarks {
                cut = true
                break
            }
        }
        guard cut else { return text }
        var kept = String.UnicodeScalarView()
        run = 0
        for scalar in text.unicodeScalars {
            run = isMark(scalar) ? run + 1 : 0
            if run <= maximumMarks { kept.append(scalar) }
        }
        return String(kept)
    }

    /// True for a combining mark; every scalar below U+0300 is a starter.
    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x300 && scalar.properties.canonicalCombiningClass != .notReordered
    }
}
