import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// One viewport of `Tests/Fixtures/Reference/viewports.json`.
struct ReferenceViewport: Decodable, Sendable, CustomTestStringConvertible {
    let name: String
    let center: [Double]
    let zoom: Double
    let width: Int
    let height: Int
    let scale: Double

    var testDescription: String { name }

    static let all: [ReferenceViewport] = {
        struct File: Decodable { let viewports: [ReferenceViewport] }
        let data = try! Data(contentsOf: TestPaths.fixture("Reference/viewports.json"))
        return try! JSONDecoder().decode(File.self, from: data).viewports
    }()
}

/// mapcompose draws MapServer's tiles for each viewport and must match MapServer's own WMS
/// GetMap of the same bbox (an independent renderer): at most 1% of pixels may differ at a
/// pixelmatch threshold of 0.1.
@Suite struct ReferenceRenderTests {
    enum TileStore: String, CaseIterable, Sendable {
        case folder, mbtiles

        var sourceYAML: String {
            let root = TestPaths.fixture("Reference").path
            switch self {
            case .folder: return "{type: xyz, path: \"\(root)/tiles/{z}/{x}/{y}.png\"}"
            case .mbtiles: return "{type: mbtiles, path: \"\(root)/naturalearth.mbtiles\"}"
            }
        }
    }

    static let cases: [(ReferenceViewport, TileStore)] =
        ReferenceViewport.all.flatMap { v in TileStore.allCases.map { (v, $0) } }

    @Test("render from MapServer tiles matches MapServer's GetMap", arguments: cases)
    func matchesMapServer(_ viewport: ReferenceViewport, _ store: TileStore) async throws {
        #expect(ReferenceViewport.all.count >= 6)
        let folder = try TemporaryFolder()
        let style = try StyleLoader.load(file: try folder.write("""
            name: reference-\(store.rawValue)
            background: "#ff00ff"
            layers:
              - id: naturalearth
                source: \(store.sourceYAML)
            """, to: "style.yaml"))
        let view = try Viewport(center: LonLat(lon: viewport.center[1], lat: viewport.center[0]), zoom: viewport.zoom,
                                width: viewport.width, height: viewport.height, scale: viewport.scale)
        let result = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(view)
        #expect(result.report.layers[0].tilesMissing == 0)
        let expected = try GoldenComparison.load(TestPaths.fixture("Reference/images/\(viewport.name).png"))
        let comparison = GoldenComparison(name: "reference-\(viewport.name)-\(store.rawValue)",
                                          threshold: 0.1, maxDifferingFraction: 0.01)
        let outcome = try comparison.compare(actual: result.image, expected: expected)
        print("reference \(viewport.name) [\(store.rawValue)]: \(outcome.summary)")
        #expect(outcome.passed, "\(outcome.summary); see \(outcome.resultsFolder?.path ?? "")")
    }
}
