import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Styles/maplibre.json, Tests/Fixtures/MapLibreReference/line-effects.json (line-blur and
/// line-pattern), sdf-icons.json (icons from a signed-distance-field sprite) and raster-adjust.json
/// (raster colour adjustments) drawn by mapcompose and by MapLibre Native (the images in
/// Tests/Fixtures/MapLibreReference, made by scripts/reference/make_maplibre_reference.py) at the
/// same views: at most 2 % of pixels may differ (pixelmatch threshold 0.1, anti-aliased pixels
/// not counted). Actual, expected and diff images go to Output/test-results/maplibre-reference/
/// when they differ more.
@Suite struct MapLibreReferenceTests {
    struct View: Decodable {
        /// The style, relative to the repository.
        let style: String
        let lat: Double, lon: Double, zoom: Double, width: Int, height: Int, scale: Double
    }

    static let folder = TestPaths.fixture("MapLibreReference")
    static let views: [String: View] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("views.json")) else { return [:] }
        return (try? JSONDecoder().decode([String: View].self, from: data)) ?? [:]
    }()

    @Test func everyViewHasAReference() {
        #expect(Self.views.count == 15)
    }

    @Test(arguments: views.keys.sorted())
    func matchesMapLibreNative(_ name: String) async throws {
        let view = try #require(Self.views[name])
        let style = try StyleLoader.load(file: TestPaths.repositoryRoot.appendingPathComponent(view.style))
        // Only the notes a fixture means to draw: its line of a source without lineMetrics.
        let expectedNotes = view.style.hasSuffix("line-gradient.json") ? ["layer 'plain'"] : []
        #expect(style.notes.map { $0.message.components(separatedBy: ":").first ?? "" } == expectedNotes, "\(style.notes)")
        let viewport = try Viewport(center: LonLat(lon: view.lon, lat: view.lat), zoom: view.zoom, width: view.width,
                                    height: view.height, scale: view.scale)
        let actual = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport).image
        let expected = try GoldenComparison.load(Self.folder.appendingPathComponent("\(name).png"))
        let outcome = try GoldenComparison(name: "maplibre-reference/\(name)", threshold: 0.1, maxDifferingFraction: 0.02)
            .compare(actual: actual, expected: expected)
        let result = outcome.result
        print("maplibre reference \(name): \(result.differingPixels) of \(result.totalPixels) pixels differ "
              + "(\(String(format: "%.2f", result.differingFraction * 100)) %), \(result.antialiasedPixels) anti-aliased")
        #expect(outcome.passed, "\(name): \(result.summary)")
    }
}
