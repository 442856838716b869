import Foundation
import Testing
@testable import MapComposeCore

/// Spaces and tabs around a value are dropped, as Foundation's `.whitespaces` trims them;
/// line breaks and spaces within are kept.
@Suite struct SpaceTrimmingTests {
    @Test(arguments: [
        " 51.5 ", "\t-0.12\t", "\u{00A0}#c00\u{2003}", "red", "", "   ", "\t \t", "a b", " \n1\n ", "\u{3000}東京\u{3000}", "\u{200B}zero-width\u{200B}", "\u{FEFF}x\u{2028}",
    ])
    func trimsWhatFoundationTrims(_ text: String) {
        #expect(String(text.trimmingSpaces) == text.trimmingCharacters(in: .whitespaces))
        #expect(String(Substring(text).trimmingSpaces) == text.trimmingCharacters(in: .whitespaces))
    }

    @Test func readsValuesWrittenWithSpaces() throws {
        #expect(Double(" 12.5\t".trimmingSpaces) == 12.5)
        #expect(RGBA(parsing: " #ff0000 ") == RGBA(r: 255, g: 0, b: 0))
        let center = try CoordinateText.center(" 51.5 ,\t-0.12 ")
        #expect(center.lat == 51.5 && center.lon == -0.12)
    }
}
