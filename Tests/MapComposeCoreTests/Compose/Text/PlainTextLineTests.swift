import CCairo
import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// A plain line (HarfBuzz alone) stands in for Pango only where it gives what Pango gives: for
/// every plain sample, the same glyphs, the same extents to the Pango unit and the same pixels,
/// with and without a halo, at fractional positions; text that is not plain is left to Pango.
@Suite struct PlainTextLineTests {
    /// Plain text: Latin with and without diacritics, digits, punctuation and symbols, kerning
    /// pairs and ligatures, at sizes whole and fractional, regular and bold.
    static let plainSamples = [
        "Natural Earth (public domain)", "© OpenStreetMap contributors", "Zürich – Genève, São Paulo",
        "AVATAR WAVE To Ty Yo fi fl ffi", "1:25 000 — 12.5 km · 3×4", "Œuvre, façade, naïve, Ærø, İstanbul",
        "«Köln» „Łódź“ ‘Dvůr Králové’ …", "Kraków Reykjavík Þórshöfn ĳsselmeer", "42", "x",
    ]
    static let fonts = [TextFont(size: 10), TextFont(size: 13.7), TextFont(size: 24, bold: true), TextFont(size: 7.25)]

    /// Text Pango must set: other scripts, combining marks, invisible characters, controls,
    /// characters needing another font, right-to-left text, nothing to draw.
    static let otherSamples = [
        "東京", "Москва", "القاهرة", "Athens Αθήνα", "e\u{301}", "a\u{200B}b", "tab\there", "soft\u{AD}hyphen",
        "no\u{A0}break", "A\u{0378}B", "", "   ", "emoji 🗺",
    ]

    @Test(arguments: plainSamples)
    func isPlain(_ text: String) {
        #expect(PlainTextLine.script(of: text) != nil)
        for font in Self.fonts {
            #expect(PlainTextLine(text, font: font) != nil, "\(text) at \(font.size) px is set plainly")
        }
    }

    @Test(arguments: otherSamples)
    func isLeftToPango(_ text: String) throws {
        #expect(PlainTextLine(text, font: TextFont(size: 12)) == nil)
        if case .plain = try StraightTextLine(text, font: TextFont(size: 12)) {
            Issue.record("\(text) was set plainly")
        }
    }

    @Test(arguments: plainSamples)
    func shapesAndMeasuresAsPangoDoes(_ text: String) throws {
        for font in Self.fonts {
            let plain = try #require(PlainTextLine(text, font: font))
            let pango = try TextLine(text, font: font)
            let runs = pango.runs
            #expect(runs.count == 1, "\(text): Pango made \(runs.count) runs")
            #expect(runs.first?.glyphs == plain.glyphs.map(\.id), "\(text) at \(font.size) px: glyphs")
            #expect(plain.extents == pango.extents, "\(text) at \(font.size) px: \(plain.extents) against \(pango.extents)")
            #expect(plain.origin == pango.origin, "\(text) at \(font.size) px: origin")
        }
    }

    @Test(arguments: plainSamples)
    func drawsThePixelsPangoDraws(_ text: String) throws {
        for (index, font) in Self.fonts.enumerated() {
            let plain = try #require(PlainTextLine(text, font: font))
            let pango = try TextLine(text, font: font)
            for halo in [nil, RGBA(r: 255, g: 255, b: 255, a: 230)] {
                let drawn = try [StraightTextLine.plain(plain), .pango(pango)].map { line in
                    let image = try RasterImage(width: 420, height: 60)
                    let context = try DrawingContext(image)
                    context.clear(to: RGBA(r: 40, g: 90, b: 160, a: 255))
                    context.draw(line, x: 7.3, y: 37.65, color: RGBA(r: 20, g: 20, b: 20), halo: halo, haloWidth: 2.5)
                    try context.finish("draw a line")
                    return image
                }
                var differing = 0, painted = 0
                for y in 0..<drawn[0].height {
                    for x in 0..<drawn[0].width {
                        let a = drawn[0].rgba(x: x, y: y), b = drawn[1].rgba(x: x, y: y)
                        if a != b { differing += 1 }
                        if b != RGBA(r: 40, g: 90, b: 160, a: 255) { painted += 1 }
                    }
                }
                #expect(painted > 8, "\(text) is drawn")
                if differing > 0 {
                    let outcome = try GoldenComparison(name: "plain-text-\(index)-\(halo == nil ? "bare" : "halo")",
                                                       threshold: 0, maxDifferingFraction: 0)
                        .compare(actual: drawn[0], expected: drawn[1])
                    Issue.record("\(text) at \(font.size) px: \(differing) pixels differ from Pango's; images in \(outcome.resultsFolder?.path ?? "-")")
                }
            }
        }
    }

    /// In a PDF (a surface that keeps the text glyphs stand for) a plain line writes what Pango
    /// writes: the same glyphs with the same text, cluster by cluster, ligatures included.
    @Test(arguments: ["Natural Earth (public domain)", "final fi ffi office – 12 km", "Œuvre Ærø"])
    func writesThePDFPangoWrites(_ text: String) throws {
        let font = TextFont(size: 18)
        let plain = try #require(PlainTextLine(text, font: font))
        let pdfs = try [StraightTextLine.plain(plain), .pango(try TextLine(text, font: font))].map { line in
            let page = try VectorPage(format: .pdf, width: 400, height: 60)
            let context = try DrawingContext(page)
            context.draw(line, x: 7.3, y: 37.65, color: RGBA(r: 20, g: 20, b: 20))
            try context.finish("draw a line")
            return try page.finish()
        }
        #expect(pdfs[0].count > 1000)
        #expect(pdfs[0] == pdfs[1], "\(text): \(pdfs[0].count) bytes against Pango's \(pdfs[1].count)")
    }

    /// Pango's default language, spelled as Pango spells it, is kept where Pango keeps it.
    @Test func languageTagsAreSpelledAsPangoSpellsThem() {
        #expect(PlainTextLanguage.tag(forLocale: "C") == "c")
        #expect(PlainTextLanguage.tag(forLocale: "C.UTF-8") == "c")
        #expect(PlainTextLanguage.tag(forLocale: "POSIX") == "posix")
        #expect(PlainTextLanguage.tag(forLocale: "en_US.UTF-8") == "en-us")
        #expect(PlainTextLanguage.tag(forLocale: "de_DE@euro") == "de-de-euro")
        #expect(PlainTextLanguage.tag(forLocale: "pt_BR") == "pt-br")
        // Pango tags Latin text in these with another language: left to Pango.
        #expect(PlainTextLanguage.tag(forLocale: "ja_JP.UTF-8") == nil)
        #expect(PlainTextLanguage.tag(forLocale: "ru_RU.UTF-8") == nil)
        #expect(PlainTextLanguage.tag(forLocale: "") == nil)
    }

    /// Advances round to whole pixels as PANGO_UNITS_ROUND rounds them, negatives included.
    @Test func roundsToWholePixelsAsPangoDoes() {
        #expect(PlainTextLine.roundedToPixel(0) == 0)
        #expect(PlainTextLine.roundedToPixel(511) == 0)
        #expect(PlainTextLine.roundedToPixel(512) == 1024)
        #expect(PlainTextLine.roundedToPixel(1535) == 1024)
        #expect(PlainTextLine.roundedToPixel(-512) == 0)
        #expect(PlainTextLine.roundedToPixel(-513) == -1024)
    }
}
