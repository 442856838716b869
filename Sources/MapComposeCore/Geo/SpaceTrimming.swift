import MapLibreStyleSpec

extension Substring {
    /// The text without the spaces and tabs around it (Unicode space separators, U+0009 and the
    /// zero-width space U+200B: the set Foundation calls `.whitespaces`; line breaks are kept),
    /// read scalar by scalar as `trimmingWhiteSpace` is.
    var trimmingSpaces: Substring {
        trimming { $0 == "\t" || $0 == "\u{200B}" || $0.properties.generalCategory == .spaceSeparator }
    }
}

extension String {
    /// The text without the spaces and tabs around it (see `Substring.trimmingSpaces`).
    var trimmingSpaces: Substring { self[...].trimmingSpaces }
}
