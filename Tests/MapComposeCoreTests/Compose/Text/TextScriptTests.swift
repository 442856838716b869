import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Place names in ten script families are shaped with a real glyph for every character (the
/// default family and fontconfig's fallback for the script), and right-to-left scripts are laid
/// out right to left.
@Suite struct TextScriptTests {
    /// A script family and a real place name written in it.
    struct Sample: CustomTestStringConvertible, Sendable {
        let script: String
        let name: String
        var testDescription: String { "\(script): \(name)" }
    }

    static let samples = [
        Sample(script: "Latin with diacritics", name: "Zürich, Kraków, São Paulo, Reykjavík"),
        Sample(script: "Cyrillic", name: "Москва"),
        Sample(script: "Greek", name: "Αθήνα"),
        Sample(script: "Arabic", name: "القاهرة"),
        Sample(script: "Hebrew", name: "ירושלים"),
        Sample(script: "Devanagari", name: "नई दिल्ली"),
        Sample(script: "Bengali", name: "ঢাকা"),
        Sample(script: "Thai", name: "กรุงเทพมหานคร"),
        Sample(script: "Khmer", name: "ភ្នំពេញ"),
        Sample(script: "CJK", name: "東京"),
    ]

    /// The glyphs of `line` that stand for a missing character, with the font of their run.
    static func missingGlyphs(_ line: TextLine) -> [String] {
        line.runs.flatMap { run in
            run.glyphs.filter(TextLine.isMissing).map { String(format: "glyph 0x%X in %@", $0, run.font) }
        }
    }

    @Test(arguments: samples, [false, true])
    func everyCharacterHasAGlyph(_ sample: Sample, bold: Bool) throws {
        let line = try TextLine(sample.name, font: TextFont(size: 16, bold: bold))
        let runs = line.runs
        #expect(!runs.isEmpty && runs.allSatisfy { !$0.glyphs.isEmpty }, "\(sample.name) is shaped into glyphs")
        #expect(line.unknownGlyphCount == 0, "\(sample.name): \(line.unknownGlyphCount) characters no font has")
        #expect(Self.missingGlyphs(line).isEmpty, "\(sample.name): \(Self.missingGlyphs(line)); runs \(runs)")
        let extents = line.extents
        #expect(extents.width > 8 && extents.inkHeight > 4, "\(sample.name) has ink: \(extents)")
    }

    /// What the tests above look for is there when a character has no font: Pango's box.
    @Test func aCharacterNoFontHasIsCountedAsMissing() throws {
        let line = try TextLine("A\u{0378}B", font: TextFont(size: 16))  // U+0378 is unassigned
        #expect(line.unknownGlyphCount == 1)
        #expect(Self.missingGlyphs(line).count == 1, "\(line.runs)")
    }

    /// Latin comes from the default family itself, at the em size asked for.
    @Test func latinIsSetInTheDefaultFamilyAtItsPixelSize() throws {
        let line = try TextLine("Zürich", font: TextFont(size: 20, bold: true))
        #expect(line.runs.allSatisfy { $0.font.hasPrefix("Noto Sans Bold") && $0.font.hasSuffix("20px") }, "\(line.runs)")
        let extents = line.extents
        // Noto Sans's capitals are 0.714 em tall; its ascent and descent are 1.069 and 0.293 em.
        #expect(abs(extents.ascent - 20 * 1.069) < 0.5 && abs(extents.descent - 20 * 0.293) < 0.5, "\(extents)")
    }

    @Test(arguments: ["القاهرة", "ירושלים"])
    func rightToLeftScriptsRunFromTheRight(_ name: String) throws {
        let line = try TextLine(name, font: TextFont(size: 16))
        let first = line.characterSpan(atUTF8Offset: 0)
        let last = line.characterSpan(atUTF8Offset: name.utf8.count - name.unicodeScalars.last!.utf8.count)
        #expect(first.left > last.right - 0.5, "the first character (\(first)) is right of the last (\(last))")
        #expect(first.right > line.extents.width - 1, "the first character ends the line on the right: \(first)")
        #expect(line.runs.allSatisfy { $0.level % 2 == 1 }, "every run is right-to-left: \(line.runs)")
    }

    /// A left-to-right name with a right-to-left one inside keeps its own order around it.
    @Test func mixedDirectionsKeepEachOrder() throws {
        let text = "Tel Aviv תל אביב"
        let line = try TextLine(text, font: TextFont(size: 16))
        let t = line.characterSpan(atUTF8Offset: 0)
        let hebrewStart = text.utf8.count - "תל אביב".utf8.count
        let tav = line.characterSpan(atUTF8Offset: hebrewStart), bet = line.characterSpan(atUTF8Offset: text.utf8.count - 2)
        #expect(t.left < 1, "the Latin start is at the left: \(t)")
        #expect(tav.left > bet.right - 0.5, "the Hebrew part runs right to left: \(tav) \(bet)")
        #expect(line.runs.first?.level == 0 && line.runs.last?.level == 1, "\(line.runs)")
    }

    /// The overlay painter sets `--text "35.68,139.69,東京"` with every glyph, at any scale.
    @Test(arguments: [1.0, 2.0])
    func theTextOverlayPathSetsCJK(scale: Double) throws {
        guard case .text(let overlay) = try OverlaySyntax.parse(.text, "35.68,139.69,東京", files: { URL(fileURLWithPath: $0) }) else {
            Issue.record("not a text overlay")
            return
        }
        let line = try TextLine(overlay.text, font: OverlayPainter.font(of: overlay, scale: scale))
        #expect(line.unknownGlyphCount == 0 && Self.missingGlyphs(line).isEmpty, "\(line.runs)")
        #expect(abs(line.font.size - overlay.size * scale) < 1e-9)
    }
}
