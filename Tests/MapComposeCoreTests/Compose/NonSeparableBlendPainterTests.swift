import Foundation
import Testing
@testable import MapComposeCore

/// The copy `NonSeparableBlendPainter` blends into must line up with the destination: inside a
/// clip that does not start at the origin, and when the destination is itself a group (whose
/// surface covers only the clip's extents), as a crossfaded level inside a layer is.
@Suite struct NonSeparableBlendPainterTests {
    /// The destination: `left` in columns 0…6, `right` from column 7.
    static let left = RGBA(r: 0x33, g: 0x66, b: 0x99)
    static let right = RGBA(r: 0xff, g: 0xd7, b: 0x00)
    static let source = RGBA(r: 0xcc, g: 0x88, b: 0x44)

    /// Hue of `source` over `backdrop` at 0.6 by the W3C formulas, rounded to 8 bits.
    static func expected(over backdrop: RGBA) -> RGBA {
        func straight(_ c: RGBA) -> W3CBlendFormulas.Color { (Double(c.r) / 255, Double(c.g) / 255, Double(c.b) / 255) }
        let result = W3CBlendFormulas.composite(backdrop: straight(backdrop), alphaB: 1, source: straight(source),
                                                alphaS: 0.6, blend: W3CBlendFormulas.blend("hue")!)
        func byte(_ v: Double) -> UInt8 { UInt8((v * 255).rounded()) }
        return RGBA(r: byte(result.premultiplied.r), g: byte(result.premultiplied.g), b: byte(result.premultiplied.b))
    }

    /// Fills columns 0…6 with `left` and the rest with `right`.
    static func drawSplit(_ context: DrawingContext) {
        context.newPath()
        context.rectangle(0, 0, 7, 10)
        context.fill(left)
        context.rectangle(7, 0, 9, 10)
        context.fill(right)
    }

    @Test("hue at 0.6 inside a clip, drawn straight onto the map or inside an enclosing group", arguments: [false, true])
    func linesUpWithTheClip(_ enclosed: Bool) throws {
        let image = try RasterImage(width: 16, height: 10)
        let context = try DrawingContext(image)
        context.clear(to: .white)
        if !enclosed { Self.drawSplit(context) }
        context.save()
        context.rectangle(3, 2, 8, 5)
        context.clip()
        if enclosed {
            context.beginGroup()
            Self.drawSplit(context)
        }
        context.beginGroup()
        context.rectangle(0, 0, 16, 10)
        context.fill(Self.source)
        context.endGroup(alpha: 0.6, blend: .hue)
        if enclosed { context.endGroup(alpha: 1, blend: .srcOver) }
        context.restore()
        try context.finish("test")
        #expect(Self.expected(over: Self.left) == RGBA(r: 101, g: 90, b: 80), "the formula as worked out by hand")
        for y in 0..<10 {
            for x in 0..<16 {
                let inside = (3..<11).contains(x) && (2..<7).contains(y)
                let backdrop = x < 7 ? Self.left : Self.right
                let expected = inside ? Self.expected(over: backdrop) : enclosed ? .white : backdrop
                let p = image.rgba(x: x, y: y)
                #expect(RenderHelpers.close(p, expected, within: 1), "(\(x), \(y)): \(p), expected \(expected)")
            }
        }
    }
}
