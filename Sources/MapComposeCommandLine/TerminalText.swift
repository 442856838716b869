/// Text bound for the terminal with its control characters shown as escapes, so that a manifest
/// id, a file name or a server's text cannot move the cursor, recolour the screen or forge a
/// line of output.
public enum TerminalText {
    /// `text` with each control character (C0, DEL and C1) written as `\n`, `\r`, `\t` or
    /// `\u{1B}`; with `keepingNewlines`, line breaks stay (messages of several lines).
    public static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
        }
        guard text.unicodeScalars.contains(where: { isControl($0) && !(keepingNewlines && $0 == "\n") }) else {
            return text
        }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isControl(scalar), !(keepingNewlines && scalar == "\n") else {
                result.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result.append(contentsOf: #"\n"#.unicodeScalars)
            case "\r": result.append(contentsOf: #"\r"#.unicodeScalars)
            case "\t": result.append(contentsOf: #"\t"#.unicodeScalars)
            default: result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            }
        }
        return String(result)
    }
}
