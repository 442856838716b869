import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// mapcompose's own GeoJSON drawing (Cairo) against MapServer's (AGG) for the same data and
/// colours, at whole zooms where tiles are drawn 1:1. The two rasterizers anti-alias 1-px
/// strokes differently (measured 1.2–1.7% of pixels over the 0.1 threshold, all along
/// borders), so this check allows 3%. It catches wrong colours and missing or misplaced
/// shapes; a one-pixel offset stays under it (pixelmatch's anti-aliasing detection absorbs
/// most edge pixels), so pixel-exact placement is left to `ReferenceRenderTests` (where a
/// 1-px shift raises europe-z4 from 0.004% to 2.3%) and the geometry vectors.
@Suite struct GeoJSONReferenceTests {
    @Test(arguments: ReferenceViewport.all.filter { $0.zoom == $0.zoom.rounded() && $0.scale == 1 })
    func geojsonMatchesMapServer(_ viewport: ReferenceViewport) async throws {
        let folder = try TemporaryFolder()
        let data = TestPaths.repositoryRoot.appendingPathComponent("Styles/data/ne_110m_countries.geojson").path
        let style = try StyleLoader.load(file: try folder.write("""
            background: "#a9cbe6"
            layers:
              - id: land
                source: {type: geojson, path: "\(data)", fill: "#efe9d9", stroke: none}
              - id: borders
                source: {type: geojson, path: "\(data)", fill: none, stroke: "#8c8c8c", width: 1}
            """, to: "style.yaml"))
        let view = try Viewport(center: LonLat(lon: viewport.center[1], lat: viewport.center[0]), zoom: viewport.zoom,
                                width: viewport.width, height: viewport.height, scale: viewport.scale)
        let actual = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(view).image
        let expected = try GoldenComparison.load(TestPaths.fixture("Reference/images/\(viewport.name).png"))
        let outcome = try GoldenComparison(name: "geojson-\(viewport.name)", threshold: 0.1, maxDifferingFraction: 0.03)
            .compare(actual: actual, expected: expected)
        print("geojson \(viewport.name): \(outcome.summary)")
        #expect(outcome.passed, "\(outcome.summary); see \(outcome.resultsFolder?.path ?? "")")
    }
}
