extension Substring {
    /// The text without the spaces and tabs around it (Unicode space separators, U+0009 and the
    /// zero-width space U+200B: the set Foundation calls `.whitespaces`), read scalar by scalar: Foundation's bridged
    /// `trimmingCharacters(in:)` looks up protocol conformances at run time, a noticeable part of
    /// a render's start when it reads coordinates and overlays.
    var trimmingSpaces: Substring {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return Substring(scalars[first...last])
    }
}

extension String {
    /// The text without the spaces and tabs around it (see `Substring.trimmingSpaces`).
    var trimmingSpaces: Substring { self[...].trimmingSpaces }
}
