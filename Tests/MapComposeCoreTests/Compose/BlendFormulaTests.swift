import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Every blend mode, rendered through the renderer (a style's background as backdrop and one
/// solid layer with `opacity` and `blend`), gives the colour of the W3C Compositing and Blending
/// Level 1 formulas within ±1 per 8-bit premultiplied channel (alpha included). Expected
/// values come only from `W3CBlendFormulas`, never from Cairo.
@Suite struct BlendFormulaTests {
    /// A backdrop (the style's background) and a source (the solid layer's colour).
    struct Pair: CustomStringConvertible {
        let backdrop: String
        let source: String
        var description: String { "\(source) over \(backdrop)" }
    }

    /// Opaque pairs chosen to reach every branch of the formulas.
    static let opaquePairs = [
        // The reported case: hue of #cc8844 over #336699 at 0.6 is rgb(101, 90, 80) by the formula.
        Pair(backdrop: "#336699", source: "#cc8844"),
        // Soft-light: red takes the cs ≤ 0.5 branch, green and blue cs > 0.5 with D(cb) = √cb.
        Pair(backdrop: "#1a80e6", source: "#4dbf99"),
        // Soft-light: red has cs > 0.5 with cb ≤ 0.25 (D's polynomial); green just above 0.25.
        Pair(backdrop: "#204060", source: "#e0a030"),
        // Dodge/burn extremes: cb = 0 with cs = 1, cb = 1 with cs = 0, cs = 1 with 0 < cb < 1.
        Pair(backdrop: "#00ff80", source: "#ff00ff"),
        // … and cb = 1 with cs = 0 (burn's cb = 1 comes first), cb = 0 with cs = 1, cs = 0 with 0 < cb < 1.
        Pair(backdrop: "#ff0080", source: "#00ff00"),
        // Non-separable clipping: SetLum above 1 (luminosity, color), a grey source (SetSat of grey).
        Pair(backdrop: "#ff2010", source: "#e0e0e0"),
        // SetLum below 0 (luminosity of a dark source over yellow); dodge past 1.
        Pair(backdrop: "#ffd700", source: "#302010"),
    ]

    /// Pairs whose backdrop or source is not opaque, for the general compositing formula. Their
    /// alphas are multiples of 51 and their channels multiples of 5, so the premultiplied 8-bit
    /// values the surfaces hold are exact and the formula gets the same inputs as the renderer
    /// (otherwise a stored value up to 1/255 off, which dodge's slope 1/(1 − cs) multiplies,
    /// would be measured as well).
    static let translucentPairs = [
        Pair(backdrop: "#00000000", source: "#cc8844"),
        // Dodge near its saturation point in red: cb / (1 − cs) = 0.98.
        Pair(backdrop: "#32649699", source: "#cc8844"),
        Pair(backdrop: "#326496", source: "#c88c46cc"),
        Pair(backdrop: "#ffd70066", source: "#50be96cc"),
    ]

    static let opacities = [1.0, 0.6]

    @Test("blend modes follow the W3C formulas", arguments: BlendMode.allCases, opacities)
    func followsTheFormulas(_ mode: BlendMode, _ opacity: Double) async throws {
        for (kind, pairs) in [("opaque backdrop", Self.opaquePairs), ("translucent backdrop or source", Self.translucentPairs)] {
            var worst = 0
            for pair in pairs {
                let error = try await Self.error(mode, opacity: opacity, pair: pair)
                worst = max(worst, error.worst)
                #expect(error.worst <= 1, "\(mode.rawValue) at \(opacity), \(pair): \(error.detail)")
            }
            print("blend \(mode.rawValue) at opacity \(opacity), \(kind): largest error \(worst)")
        }
    }

    @Test func theReportedHueCaseGivesTheFormulasColour() async throws {
        let image = try await Self.render(.hue, opacity: 0.6, pair: Pair(backdrop: "#336699", source: "#cc8844"))
        let p = image.rgba(x: 4, y: 4)
        #expect(RenderHelpers.close(p, RGBA(r: 101, g: 90, b: 80), within: 1), "\(p)")
    }

    @Test func theStyleNamesAreTheSpecificationsModes() throws {
        #expect(Set(BlendMode.allCases.map(\.rawValue)) == Set(W3CBlendFormulas.names))
        for name in W3CBlendFormulas.names { #expect(W3CBlendFormulas.blend(name) != nil, "\(name)") }
    }

    @Test func anUnknownBlendModeListsEveryValidName() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("layers:\n  - {id: a, blend: sparkle, source: {type: solid}}\n", to: "style.yaml")
        do {
            _ = try StyleLoader.load(file: file)
            Issue.record("a style with blend 'sparkle' loaded")
        } catch {
            let message = try #require(error.problems.first?.description)
            #expect(message.contains("unknown blend mode 'sparkle'"), "\(message)")
            let listed = try #require(message.split(separator: "expected one of: ").last)
            let names = listed.dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(names.count == 16 && Set(names) == Set(W3CBlendFormulas.names), "\(message)")
        }
    }

    // MARK: helpers

    /// Renders 8×8 pixels of `pair.source` blended with `mode` at `opacity` over `pair.backdrop`.
    static func render(_ mode: BlendMode, opacity: Double, pair: Pair) async throws -> RasterImage {
        let folder = try TemporaryFolder()
        let style = try RenderHelpers.style("""
            background: "\(pair.backdrop)"
            layers:
              - {id: top, opacity: \(opacity), blend: \(mode.rawValue), source: {type: solid, color: "\(pair.source)"}}
            """, in: folder)
        return try await RenderHelpers.render(style, lat: 0, lon: 0, zoom: 3, width: 8, height: 8).image
    }

    /// The largest difference, over all pixels and premultiplied channels, between a render and
    /// the formula's colour rounded to 8 bits.
    static func error(_ mode: BlendMode, opacity: Double, pair: Pair) async throws
        -> (worst: Int, detail: String) {
        let backdrop = try #require(RGBA(parsing: pair.backdrop)), source = try #require(RGBA(parsing: pair.source))
        let blend = try #require(W3CBlendFormulas.blend(mode.rawValue), "no formula for \(mode.rawValue)")
        func straight(_ c: RGBA) -> W3CBlendFormulas.Color { (Double(c.r) / 255, Double(c.g) / 255, Double(c.b) / 255) }
        let result = W3CBlendFormulas.composite(backdrop: straight(backdrop), alphaB: Double(backdrop.a) / 255,
                                                source: straight(source), alphaS: opacity * Double(source.a) / 255,
                                                blend: blend)
        let expected = [result.alpha, result.premultiplied.r, result.premultiplied.g, result.premultiplied.b]
            .map { Int(($0 * 255).rounded()) }
        let image = try await render(mode, opacity: opacity, pair: pair)
        var worst = 0, found: [Int] = expected
        image.withPixels { pixels, wordsPerRow in
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let word = pixels[y * wordsPerRow + x]
                    let actual = [24, 16, 8, 0].map { Int((word >> UInt32($0)) & 0xFF) }
                    let error = zip(actual, expected).map { abs($0 - $1) }.max()!
                    if error > worst { (worst, found) = (error, actual) }
                }
            }
        }
        return (worst, "premultiplied ARGB \(found), formula \(expected), error \(worst)")
    }
}
