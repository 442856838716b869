import Foundation
import Testing
@testable import MapLibreStyleSpec

@Suite struct WhiteSpaceTrimmingTests {
    @Test func trimsWhatFoundationTrims() {
        for text in ["", " ", "\t\n red \r\n", "\u{3000}#fff\u{2028}", "\u{85}a b\u{A0}", "x", " \u{200A}\u{202F}y\u{205F}\u{1680}",
                     "\u{200B}zero-width\u{200B}", "\u{FEFF}bom\u{FEFF}", "\u{180E}mongolian\u{200C}", "e\u{301} ", "\u{2029}\u{0B}\u{0C}", "inner  space kept"] {
            #expect(String(text.trimmingWhiteSpace) == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.debugDescription)")
        }
    }
}
