import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// Stability goldens for the shipped styles: expected images recorded by mapcompose itself
/// (`RECORD_GOLDENS=1 make test` records them and fails). They guard against unintended
/// changes; geometry and colour correctness is checked by `ReferenceRenderTests`.
@Suite struct StyleGoldenTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let style: String
        let lat: Double, lon: Double, zoom: Double
        let width: Int, height: Int, scale: Double

        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "default-london-z5", style: "default", lat: 51.5, lon: -0.12, zoom: 5, width: 512, height: 384, scale: 1),
        Case(name: "default-pacific-z2.5-2x", style: "default", lat: 0, lon: 180, zoom: 2.5, width: 320, height: 240, scale: 2),
        Case(name: "generated-debug-z3.7", style: "Styles/generated.yaml", lat: 10, lon: 20, zoom: 3.7, width: 400, height: 300, scale: 1),
        Case(name: "overlays-atlantic-z2.5-2x", style: "Styles/overlays.yaml", lat: 35, lon: 10, zoom: 2.5, width: 400, height: 250, scale: 2),
    ]

    @Test(arguments: cases)
    func matchesRecordedImage(_ golden: Case) async throws {
        let stylePath = golden.style.hasSuffix(".yaml")
            ? TestPaths.repositoryRoot.appendingPathComponent(golden.style).path : golden.style
        let style = try StyleLoader.load(nameOrPath: stylePath)
        let viewport = try Viewport(center: LonLat(lon: golden.lon, lat: golden.lat), zoom: golden.zoom,
                                    width: golden.width, height: golden.height, scale: golden.scale)
        let actual = try await MapRenderer(style: style).render(viewport).image
        let expectedURL = TestPaths.repositoryRoot
            .appendingPathComponent("Tests/MapComposeGoldenTests/Expected/\(golden.name).png")
        if ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: expectedURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try ImageEncoder.png(actual).write(to: expectedURL)
            Issue.record("recorded \(expectedURL.lastPathComponent); run again without RECORD_GOLDENS")
            return
        }
        let expected = try GoldenComparison.load(expectedURL)
        let outcome = try GoldenComparison(name: "golden-\(golden.name)", threshold: 0.1, maxDifferingFraction: 0.001)
            .compare(actual: actual, expected: expected)
        #expect(outcome.passed, "\(outcome.summary); see \(outcome.resultsFolder?.path ?? "")")
    }
}
