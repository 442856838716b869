extension Substring {
    /// The text without the white space around it: spaces, tabs and line breaks (Unicode's
    /// White_Space property and the zero-width space: the set Foundation calls
    /// `.whitespacesAndNewlines`), read scalar by scalar instead of through Foundation's
    /// bridged character sets, whose first use looks up protocol conformances at run time.
    package var trimmingWhiteSpace: Substring { trimming { $0.isWhiteSpace } }

    /// The text without the scalars around it for which `isTrimmed` holds.
    package func trimming(_ isTrimmed: (Unicode.Scalar) -> Bool) -> Substring {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
              let last = scalars.lastIndex(where: { !isTrimmed($0) }) else {
            return self[endIndex...]
        }
        return Substring(scalars[first...last])
    }
}

extension String {
    /// The text without the white space around it (see `Substring.trimmingWhiteSpace`).
    package var trimmingWhiteSpace: Substring { self[...].trimmingWhiteSpace }
}

extension Unicode.Scalar {
    /// True for Unicode's White_Space characters (tab, line feed to carriage return, space, next
    /// line, no-break space and the other space separators, line and paragraph separators) and
    /// the zero-width space, which Foundation counts too.
    fileprivate var isWhiteSpace: Bool {
        switch value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }
}
