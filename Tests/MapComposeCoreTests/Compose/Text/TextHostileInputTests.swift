import Foundation
import Testing
@testable import MapComposeCore

/// Text made to hurt the text engine is set, bounded, without a trap: thousands of accents on
/// one letter are cut to Unicode's stream-safe limit of 30 in a row; text whose height or width
/// in Pango units passes 32 bits is measured in doubles.
@Suite struct TextHostileInputTests {
    static let font = TextFont(size: 16)

    @Test func runsOfCombiningMarksAreCutToThirty() throws {
        let piled = "e" + String(repeating: "\u{301}", count: 20_000) + "x" + String(repeating: "\u{308}", count: 40)
        let cut = StreamSafeText.limited(piled)
        #expect(cut.unicodeScalars.count == 1 + 30 + 1 + 30)
        #expect(Array(cut.unicodeScalars.prefix(2)) == ["e", "\u{301}"] && cut.unicodeScalars.filter { $0 == "x" }.count == 1)
        let line = try TextLine(piled, font: Self.font)
        #expect(line.text == cut && line.extents.width > 0)
    }

    @Test func realTextIsLeftAsItIs() {
        for text in ["Hà Nội", "Ẩm thực", "नई दिल्ली", "กรุงเทพมหานคร", "مرحبا", "ꙮ", "",
                     "a" + String(repeating: "\u{301}", count: 30)] {
            #expect(StreamSafeText.limited(text) == text, "\(text)")
        }
    }

    @Test func linesFarApartAreMeasuredWithoutOverflow() throws {
        // A character a line (a width of a hundredth of a pixel), each line Pango's most apart.
        let text = String(repeating: "東", count: 3000)
        for vertical in [false, true] {
            let line = try TextLine(text, font: Self.font, wrapWidth: 0.01, lineHeight: 1e9, vertical: vertical)
            #expect(line.extents.descent.isFinite && line.extents.inkBottom.isFinite)
            // One line, its characters Pango's most apart.
            let spaced = try TextLine(text, font: Self.font, letterSpacing: 1e9, vertical: vertical)
            #expect(spaced.extents.inkRight.isFinite && spaced.extents.width.isFinite)
        }
        let line = try TextLine(text, font: Self.font, wrapWidth: 0.01, lineHeight: 1e9)
        #expect(line.characterSpan(atUTF8Offset: Int(Int32.max) + 10).left.isFinite)
    }
}
