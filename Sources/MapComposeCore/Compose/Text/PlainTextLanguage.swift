import Foundation

/// The language Pango tags Latin text with, for `PlainTextLine` to shape and match fonts with
/// the same tag: Pango's default language, which is the C library's LC_CTYPE locale spelled
/// as pango_language_from_string spells it (lower case, "_" and "@" as "-", cut at the first
/// character that is not a letter, a digit or one of those: "en_US.UTF-8" is "en-us", "C" is "c").
///
/// Pango keeps that tag for a run of Latin text when it knows nothing of the language (as for
/// "c" and "posix") or knows it is written in Latin script; for other languages (Japanese,
/// Russian…) it tags the run with another language, and such text is left to Pango.
enum PlainTextLanguage {
    /// The tag, or nil when Pango would tag Latin text otherwise.
    static let current: String? = tag(forLocale: setlocale(LC_CTYPE, nil).map { String(cString: $0) } ?? "C")

    /// Languages written in Latin script that Pango knows as such (their first subtag).
    static let latinLanguages: Set<String> = [
        "af", "br", "ca", "cs", "cy", "da", "de", "en", "eo", "es", "et", "eu", "fi", "fo", "fr", "fy", "ga", "gd",
        "gl", "hr", "hu", "id", "is", "it", "la", "lb", "lt", "lv", "ms", "mt", "nb", "nl", "nn", "no", "oc", "pl",
        "pt", "rm", "ro", "sk", "sl", "sq", "sv", "sw", "tr", "vi",
    ]

    /// Languages Pango knows nothing of, so keeps for any script.
    static let unknownLanguages: Set<String> = ["c", "posix"]

    /// The tag for LC_CTYPE locale `locale`, or nil when Pango would tag Latin text otherwise.
    static func tag(forLocale locale: String) -> String? {
        var tag = ""
        for byte in locale.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                tag.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                tag.unicodeScalars.append(Unicode.Scalar(byte + 32))
            case UInt8(ascii: "_"), UInt8(ascii: "@"):
                tag.append("-")
            default:
                return accepted(tag)
            }
        }
        return accepted(tag)
    }

    private static func accepted(_ tag: String) -> String? {
        let language = String(tag.prefix { $0 != "-" })
        return unknownLanguages.contains(tag) || latinLanguages.contains(language) ? tag : nil
    }
}
