import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Text shaped vertically (Pango's east gravity): laid out along x to be drawn a quarter turn
/// clockwise, with ideographs turned a quarter turn back (so they stand upright when drawn) and
/// Latin letters as they are (so they lie on their side).
@Suite struct TextVerticalTests {
    static func inkSize(_ line: TextLine) -> (width: Double, height: Double) {
        let e = line.extents
        return (e.inkRight - e.inkLeft, e.inkBottom - e.inkTop)
    }

    @Test func ideographsAreTurnedToStandUprightWhenTheLineIs() throws {
        // 一 is a level stroke: across the line when set horizontally, along the layout's y once
        // turned back for vertical text.
        let font = TextFont(size: 24)
        let level = Self.inkSize(try TextLine("一", font: font)), vertical = Self.inkSize(try TextLine("一", font: font, vertical: true))
        #expect(level.width > 3 * level.height, "\(level)")
        #expect(vertical.height > 3 * vertical.width, "\(vertical)")
    }

    @Test func latinLettersAreLeftAsTheyAre() throws {
        let font = TextFont(size: 24)
        let level = try TextLine("Tokyo", font: font), vertical = try TextLine("Tokyo", font: font, vertical: true)
        #expect(abs(level.extents.width - vertical.extents.width) < 0.5, "\(level.extents) \(vertical.extents)")
        #expect(Self.inkSize(vertical).width > Self.inkSize(vertical).height)
        #expect(vertical.isVertical && !level.isVertical)
        #expect(TextScriptTests.missingGlyphs(try TextLine("東京タワー Tokyo", font: font, vertical: true)).isEmpty)
    }

    @Test func onlyTextWithUprightCharactersMayBeVertical() {
        #expect(WritingMode.allowsVertical("東京"))
        #expect(WritingMode.allowsVertical("서울"))
        #expect(WritingMode.allowsVertical("JR新宿駅"))
        #expect(WritingMode.allowsVertical("カタカナ"))
        #expect(!WritingMode.allowsVertical("Tokyo"))
        #expect(!WritingMode.allowsVertical("Москва"))
        #expect(!WritingMode.allowsVertical(""))
        #expect(WritingMode.modes(["vertical"], for: "Tokyo") == [.horizontal])
        #expect(WritingMode.modes(["vertical"], for: "東京") == [.vertical])
        #expect(WritingMode.modes(["horizontal", "vertical", "vertical"], for: "東京") == [.horizontal, .vertical])
        #expect(WritingMode.modes(["sideways"], for: "東京") == [.horizontal])
        #expect(WritingMode.modes([], for: "東京") == [.horizontal])
    }
}
