import CCairo
import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// A paint at scale 1 moved by a fraction of a pixel, done without pixman, gives pixman's pixels.
@Suite struct TranslatedBilinearPaintTests {
    /// Fractions of a pixel to move by: arbitrary ones, and ones at the edges of pixman's 16.16
    /// rounding and of its 7-bit weights (k/128, a 65536th either side, and half a 65536th).
    static let offsets: [(Double, Double)] = [
        (-13.37, -7.81), (-5.5, -20.25), (-0.999, -31.3), (-4.7, -6.0009), (-40 - 3.0 / 128, -9 - 1.0 / 65536),
        (-17 - 5.0 / 128 - 1.0 / 65536, -2 - 0.5 / 65536), (-3 - 1.5 / 65536, -11 - 127.0 / 128 - 0.49 / 65536),
        (-8.003, -12.99999),
    ]

    /// Paints `source` at (x, y) over a translucent background once with Cairo (through the
    /// drawing context, on one thread) and once with the translated paint; returns both.
    private func paintBothWays(_ source: RasterImage, x: Double, y: Double, background seed: UInt32,
                               clear: Bool) throws -> (cairo: RasterImage, translated: RasterImage) {
        func background() throws -> RasterImage {
            clear ? try RasterImage(width: 230, height: 150)
                : try ConcurrentDrawingTests.noise(width: 230, height: 150, seed: seed)
        }
        let cairo = try background(), translated = try background()
        let context = try DrawingContext(cairo)
        context.paint(source, x: x, y: y, scale: 1, alpha: 1, padEdges: true, resampling: .bilinear)
        try context.finish("test paint")
        let paint = try #require(TranslatedBilinearPaint(
            image: source, x: x, y: y, scale: 1, alpha: 1, filter: DrawingContext.filter(x: x, y: y, scale: 1),
            columns: 0..<230, rows: 0..<150))
        #expect(paint.paint(try source.privateView(), onto: translated, rows: 0..<150))
        return (cairo, translated)
    }

    @Test("the same pixels as Cairo's paint", arguments: offsets.indices)
    func samePixelsAsCairo(_ index: Int) throws {
        let (x, y) = Self.offsets[index]
        for (seed, translucent, clear) in [(UInt32(3), true, false), (11, false, false), (5, true, true)] {
            let source = try ConcurrentDrawingTests.noise(width: 290, height: 200, seed: seed, translucent: translucent)
            let (cairo, translated) = try paintBothWays(source, x: x, y: y, background: seed &+ 1, clear: clear)
            #expect(try ConcurrentDrawingTests.differing(cairo, translated, tolerance: 0,
                                                         name: "translated-bilinear-\(index)-\(seed)") == 0,
                    "moved by (\(x), \(y)), translucent \(translucent), clear background \(clear)")
        }
    }

    @Test func otherPaintsAreLeftToCairo() throws {
        let image = try RasterImage(width: 100, height: 80)
        func paint(x: Double = -3.3, y: Double = -2.6, scale: Double = 1, alpha: Double = 1,
                   filter: cairo_filter_t = CAIRO_FILTER_BILINEAR, columns: Range<Int> = 0..<90) -> TranslatedBilinearPaint? {
            TranslatedBilinearPaint(image: image, x: x, y: y, scale: scale, alpha: alpha, filter: filter,
                                    columns: columns, rows: 0..<70)
        }
        #expect(paint() != nil)
        #expect(paint(scale: 1.01) == nil, "scaled")
        #expect(paint(alpha: 0.5) == nil, "translucent layer")
        #expect(paint(filter: CAIRO_FILTER_NEAREST) == nil, "not bilinear")
        #expect(paint(columns: 0..<97) == nil, "the last column's right samples would be past the image's edge")
        #expect(paint(x: 0.2) == nil, "the first column's left samples would be before the image's edge")
        #expect(paint(y: -12.5) == nil, "the last row's lower samples would be past the image's edge")
        #expect(paint(x: -0.999, y: -7.001) == nil, "within 1/512 of whole pixels both ways, Cairo copies pixels")
    }
}
