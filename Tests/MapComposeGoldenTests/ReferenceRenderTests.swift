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

extension ReferenceViewport {
    /// The renderer's viewport for this reference viewport.
    func makeViewport() throws -> Viewport {
        try Viewport(center: LonLat(lon: center[1], lat: center[0]), zoom: zoom, width: width, height: height, scale: scale)
    }

    /// Renders this viewport from one layer of `source` (a style's source mapping) and compares
    /// it with MapServer's GetMap of the same bbox: at most 1% of pixels may differ at a
    /// pixelmatch threshold of 0.1.
    func renderAndCompare(source: String, resultsName: String) async throws -> (RenderResult, GoldenComparison.Outcome) {
        let folder = try TemporaryFolder()
        let style = try StyleLoader.load(file: try folder.write("""
            name: \(resultsName)
            background: "#ff00ff"
            layers:
              - id: naturalearth
                source: \(source)
            """, to: "style.yaml"))
        let result = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(try makeViewport())
        let expected = try GoldenComparison.load(TestPaths.fixture("Reference/images/\(name).png"))
        let comparison = GoldenComparison(name: resultsName, threshold: 0.1, maxDifferingFraction: 0.01)
        return (result, try comparison.compare(actual: result.image, expected: expected))
    }
}

/// mapcompose draws MapServer's tiles for each viewport and must match MapServer's own WMS
/// GetMap of the same bbox (an independent renderer): at most 1% of pixels may differ at a
/// pixelmatch threshold of 0.1.
@Suite struct ReferenceRenderTests {
    enum TileSet: String, CaseIterable, Sendable {
        case folder, mbtiles

        var sourceYAML: String {
            let root = TestPaths.fixture("Reference").path
            switch self {
            case .folder: return "{type: xyz, path: \"\(root)/tiles/{z}/{x}/{y}.png\"}"
            case .mbtiles: return "{type: mbtiles, path: \"\(root)/naturalearth.mbtiles\"}"
            }
        }
    }

    static let cases: [(ReferenceViewport, TileSet)] =
        ReferenceViewport.all.flatMap { v in TileSet.allCases.map { (v, $0) } }

    @Test("render from MapServer tiles matches MapServer's GetMap", arguments: cases)
    func matchesMapServer(_ viewport: ReferenceViewport, _ store: TileSet) async throws {
        #expect(ReferenceViewport.all.count >= 6)
        let (result, outcome) = try await viewport.renderAndCompare(source: store.sourceYAML,
                                                                    resultsName: "reference-\(viewport.name)-\(store.rawValue)")
        #expect(result.report.layers[0].tilesMissing == 0)
        print("reference \(viewport.name) [\(store.rawValue)]: \(outcome.summary)")
        #expect(outcome.passed, "\(outcome.summary); see \(outcome.resultsFolder?.path ?? "")")
    }
}
