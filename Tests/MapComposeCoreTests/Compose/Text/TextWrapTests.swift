import Foundation
import Testing
@testable import MapComposeCore

/// With a wrap width, text obeys its line breaks and breaks lines wider than the width between
/// words (MapLibre's text-max-width); without one it stays one line.
@Suite struct TextWrapTests {
    static let font = TextFont(size: 16)

    @Test func aLongNameBreaksBetweenWordsWithinTheWidth() throws {
        let text = "Kensington and Chelsea and Westminster"
        let one = try TextLine(text, font: Self.font)
        let wrapped = try TextLine(text, font: Self.font, wrapWidth: 120)
        let lineHeight = one.extents.ascent + one.extents.descent
        #expect(wrapped.extents.width <= 120.5 && one.extents.width > 200)
        #expect(wrapped.extents.ascent + wrapped.extents.descent > 2.5 * lineHeight)
        // The first line's baseline is the origin: its ascent is one line's.
        #expect(abs(wrapped.extents.ascent - one.extents.ascent) < 0.01)
    }

    @Test func lineBreaksAreObeyedOnlyWithAWrapWidth() throws {
        let two = try TextLine("東京\nTokyo", font: Self.font, wrapWidth: 1000)
        let flat = try TextLine("東京\nTokyo", font: Self.font)
        let single = try TextLine("Tokyo", font: Self.font)
        let lineHeight = flat.extents.ascent + flat.extents.descent
        #expect(two.extents.ascent + two.extents.descent > 1.8 * lineHeight)
        #expect(two.extents.width < flat.extents.width)
        #expect(abs(flat.extents.ascent + flat.extents.descent - lineHeight) < 0.01)
        #expect(single.extents.width < flat.extents.width)
    }

    /// With a line height, the lines of a block are that far apart (MapLibre's
    /// text-line-height), whatever the fonts' own heights; one line is left as the font sets it.
    @Test func aLineHeightSetsTheLinesOfABlockApart() throws {
        let text = "東京\nTokyo\nKyōto"
        let natural = try TextLine(text, font: Self.font, wrapWidth: 1000)
        let tight = try TextLine(text, font: Self.font, wrapWidth: 1000, lineHeight: 19.2)
        let loose = try TextLine(text, font: Self.font, wrapWidth: 1000, lineHeight: 40)
        func height(_ line: TextLine) -> Double { line.extents.ascent + line.extents.descent }
        #expect(tight.lineCount == 3 && abs(height(tight) - 3 * 19.2) < 0.5, "\(tight.extents)")
        #expect(abs(height(loose) - 120) < 0.5, "\(loose.extents)")
        #expect(height(natural) > height(tight) + 5, "the fonts' own heights are taller: \(natural.extents)")
        let alone = try TextLine("Tokyo", font: Self.font, wrapWidth: 1000, lineHeight: 40)
        let plain = try TextLine("Tokyo", font: Self.font)
        #expect(alone.extents == plain.extents)
        #expect(try TextLine(text, font: Self.font, wrapWidth: 1000, lineHeight: .nan).extents == natural.extents)
    }
}
