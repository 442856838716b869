/// The attribution a map shows: the style's, then each source's that it does not already
/// contain, joined by " | ", at most `maxLength` characters (cut to end in "…" past that, so
/// a huge attribution from a style or a server never floods the drawing).
struct AttributionText {
    /// Most characters drawn.
    static let maxLength = 1000

    let text: String
    /// True when the attribution was longer than `maxLength` and was cut.
    let wasCut: Bool

    init(_ parts: [String?]) {
        var kept: [String] = []
        for part in parts {
            guard let part, !part.isEmpty else { continue }
            // Each part is cut first, so comparing parts stays cheap however long they are.
            let head = String(part.prefix(Self.maxLength + 1))
            if !kept.contains(where: { $0.localizedCaseInsensitiveContains(head) }) { kept.append(head) }
        }
        let joined = kept.joined(separator: " | ")
        wasCut = joined.count > Self.maxLength
        text = wasCut ? String(joined.prefix(Self.maxLength - 1)) + "…" : joined
    }
}
