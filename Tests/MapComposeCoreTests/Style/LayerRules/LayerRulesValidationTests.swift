import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Every bad layer-rule value is a problem with its line and key path, all reported at once.
@Suite struct LayerRulesValidationTests {
    @Test func everyBadValueIsReportedWithLineAndKeyPath() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("""
            layers:
              - id: a
                opacity: 1.5
                minzoom: 9
                maxzoom: 4
                fade: {in: [6, 3], out: [1, 2]}
                fallback: {parents: -1, children: 9}
                resampling: cubic
                native: [3, 40]
                crossfade: maybe
                missing: "#12345"
                source: {type: solid}
            """, to: "style.yaml")
        let messages: [String]
        do {
            _ = try StyleLoader.load(file: file)
            messages = []
        } catch {
            messages = error.problems.map { $0.description.replacingOccurrences(of: file.relativePath, with: "style.yaml") }
        }
        #expect(messages == [
            "style.yaml:3: layers[0].opacity: must be between 0 and 1, got 1.5",
            "style.yaml:5: layers[0].maxzoom: must be greater than minzoom (9)",
            "style.yaml:6: layers[0].fade.in: reversed: 6 is above 3 (write [low, high])",
            "style.yaml:7: layers[0].fallback.parents: must be between 0 and 8, got -1",
            "style.yaml:7: layers[0].fallback.children: must be between 0 and 8, got 9",
            "style.yaml:8: layers[0].resampling: unknown resampling 'cubic' (expected one of: nearest, bilinear, best)",
            "style.yaml:9: layers[0].native: expected numbers within 0…30",
            "style.yaml:10: layers[0].crossfade: expected true or false, got 'maybe'",
            "style.yaml:11: layers[0].missing: '#12345' is not a colour (use #rgb, #rrggbb, #rrggbbaa or a CSS name)",
        ])
    }

    @Test func aFadeOutBeforeTheFadeInEndsIsRefused() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("layers:\n  - {id: a, fade: {in: [3, 6], out: [5, 8]}, source: {type: solid}}\n", to: "s.yaml")
        #expect(throws: StyleError.self) { try StyleLoader.load(file: file) }
    }

    @Test func goodValuesLoad() throws {
        let folder = try TemporaryFolder()
        try folder.write(try TileFixtures.solidPNG(.black, size: 8), to: "err.png")
        let style = try StyleLoader.load(file: try folder.write("""
            layers:
              - id: a
                bounds: [170, -20, -170, 0]
                fade: {in: [2, 3], out: [8, 9]}
                crossfade: true
                fallback: {parents: 2, children: 0}
                missing: err.png
                resampling: nearest
                native: [1, 6]
                source: {type: solid}
            """, to: "s.yaml"))
        let spec = style.layers[0].spec
        #expect(spec.bounds?.crossesAntimeridian == true)
        #expect(spec.fade == ZoomFade(fadeIn: 2...3, fadeOut: 8...9))
        #expect(spec.crossfade && spec.fallback == TileFallback(parents: 2, children: 0) && spec.resampling == .nearest)
        #expect(spec.native == 1...6)
        guard case .image(let image, let path) = spec.missing else {
            Issue.record("missing: err.png is an image fill")
            return
        }
        #expect(image.width == 8 && path == "err.png")
    }
}
