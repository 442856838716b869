import CPangoLoader
import Foundation

/// The fontconfig configuration text is set with, made once, on first use.
///
/// Reading the system's configuration (/etc/fonts, some sixty XML files) takes longer than
/// shaping a map's labels, so unless `FONTCONFIG_FILE` or `FONTCONFIG_PATH` names one, the
/// configuration is this small one instead: the usual font folders (the system's, /usr/local's
/// and the user's), read through the caches `fc-cache` keeps, and after the family asked for,
/// the Noto family of each script, so every script falls back to Noto and not to whichever font
/// fontconfig happens to rank first. Chinese, Japanese and Korean text takes the Noto CJK
/// variant of the text's language (from the locale).
enum FontConfiguration {
    /// The Noto families tried, in order, for characters the family asked for lacks.
    static let fallbackFamilies = [
        "Noto Sans", "Noto Sans Arabic", "Noto Sans Hebrew", "Noto Sans Armenian", "Noto Sans Georgian",
        "Noto Sans Devanagari", "Noto Sans Bengali", "Noto Sans Gurmukhi", "Noto Sans Gujarati", "Noto Sans Oriya",
        "Noto Sans Tamil", "Noto Sans Telugu", "Noto Sans Kannada", "Noto Sans Malayalam", "Noto Sans Sinhala",
        "Noto Sans Thai", "Noto Sans Lao", "Noto Sans Khmer", "Noto Sans Myanmar", "Noto Sans Ethiopic",
        "Noto Sans Thaana", "Noto Sans Syriac", "Noto Sans Mongolian", "Noto Serif Tibetan",
        "Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans CJK TC", "Noto Sans CJK KR",
        "Noto Sans Symbols", "Noto Sans Symbols2", "DejaVu Sans",
    ]

    /// The Noto CJK variant put first (before SC, simplified Chinese) for text in each language.
    static let cjkFamilies = [("ja", "JP"), ("ko", "KR"), ("zh-tw", "TC"), ("zh-hk", "HK"), ("zh-mo", "TC")]

    /// The configuration as fontconfig XML.
    static var xml: String {
        var rules = ""
        for (language, variant) in cjkFamilies {
            rules += """
                <match target="pattern"><test name="lang" compare="contains"><string>\(language)</string></test>\
                <test name="family"><string>Noto Sans CJK SC</string></test>\
                <edit name="family" mode="prepend"><string>Noto Sans CJK \(variant)</string></edit></match>

                """
        }
        return """
            <?xml version="1.0"?>
            <fontconfig>
            <dir>/usr/share/fonts</dir><dir>/usr/local/share/fonts</dir>
            <dir prefix="xdg">fonts</dir><dir>~/.fonts</dir>
            <cachedir>/var/cache/fontconfig</cachedir><cachedir prefix="xdg">fontconfig</cachedir>
            <match target="pattern"><edit name="family" mode="append_last">\
            \(fallbackFamilies.map { "<string>\($0)</string>" }.joined())</edit></match>
            \(rules)</fontconfig>
            """
    }

    /// True once fontconfig is set up: with this configuration, or the one the environment
    /// names, or (should this one not load) the system's.
    static let ready: Bool = {
        let environment = ProcessInfo.processInfo.environment
        if environment["FONTCONFIG_FILE"] != nil || environment["FONTCONFIG_PATH"] != nil { return FcInit() != 0 }
        guard let config = FcConfigCreate() else { return FcInit() != 0 }
        guard FcConfigParseAndLoadFromMemory(config, xml, 1) != 0, FcConfigBuildFonts(config) != 0,
              FcConfigSetCurrent(config) != 0 else {
            FcConfigDestroy(config)
            return FcInit() != 0
        }
        FcConfigDestroy(config)  // the current configuration keeps its own reference
        return true
    }()
}
