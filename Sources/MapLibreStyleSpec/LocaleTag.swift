import Foundation

/// Locales named by a style (`number-format`, `collator`): only tags shaped as BCP 47 tags are
/// handed to Foundation, whose locale code traps on some malformed identifiers (a non-ASCII
/// letter); anything else is read as `en-US`.
enum LocaleTag {
    /// The locale for `tag` (nil: `en-US`).
    static func locale(_ tag: String?) -> Locale {
        guard let tag, isWellFormed(tag) else { return Locale(identifier: "en-US") }
        return Locale(identifier: tag)
    }

    /// Subtags of 1 to 8 ASCII letters or digits, joined by `-` or `_`, at most 64 characters.
    static func isWellFormed(_ tag: String) -> Bool {
        guard !tag.isEmpty, tag.utf8.count <= 64 else { return false }
        return tag.split(separator: "-", omittingEmptySubsequences: false).allSatisfy { part in
            part.split(separator: "_", omittingEmptySubsequences: false).allSatisfy { subtag in
                (1...8).contains(subtag.utf8.count) && subtag.utf8.allSatisfy { byte in
                    (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                }
            }
        }
    }
}
