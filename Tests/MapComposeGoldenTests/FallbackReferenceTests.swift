import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// One case of `Tests/Fixtures/Fallback/cases.json`: a tile-aligned viewport of the reference
/// tiles with some tiles removed, and the image Pillow made of it with the holes filled.
struct FallbackCase: Decodable, Sendable, CustomTestStringConvertible {
    /// What the report must say of a removed tile in view.
    struct Fallback: Decodable, Sendable {
        let tile: [Int]
        let status: String
        let fallbackLevel: Int
    }

    let name: String
    let viewport: ReferenceViewport
    /// The tile level the viewport shows.
    let level: Int
    let tilesInView: [[Int]]
    let remove: [[Int]]
    /// The layer's `fallback` mapping (`parents`, `children`).
    let fallback: [String: Int]
    let expected: String
    let fallbacks: [Fallback]

    var testDescription: String { name }

    struct File: Decodable {
        let completeLevels: [Int]
        let cases: [FallbackCase]
    }

    static let file: File = {
        let data = try! Data(contentsOf: TestPaths.fixture("Fallback/cases.json"))
        return try! JSONDecoder().decode(File.self, from: data)
    }()
}

/// A layer whose tile folder lacks some tiles draws them from an ancestor's sub-square scaled up,
/// or from its children scaled down, and must match the mosaic Pillow made the same way from
/// the same MapServer tiles (`scripts/fixtures/make_fallback_expected.py`): at most 1% of pixels
/// may differ at a pixelmatch threshold of 0.1. The report names the level each stand-in came from.
@Suite struct FallbackReferenceTests {
    @Test("missing tiles are filled from ancestors or children as Pillow fills them", arguments: FallbackCase.file.cases)
    func matchesPillow(_ testCase: FallbackCase) async throws {
        let folder = try TemporaryFolder()
        let removed = Set(testCase.remove.map { "\($0[0])/\($0[1])/\($0[2])" })
        let tiles = TestPaths.fixture("Reference/tiles")
        let levels = FallbackCase.file.completeLevels
        for z in levels[0]...levels[1] {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) where !removed.contains("\(z)/\(x)/\(y)") {
                    let name = "\(z)/\(x)/\(y).png"
                    try folder.write(try Data(contentsOf: tiles.appendingPathComponent(name)), to: "tiles/\(name)")
                }
            }
        }
        #expect(removed.count == testCase.remove.count)
        for tile in removed {
            #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("tiles/\(tile).png").path))
        }

        let style = try StyleLoader.load(file: try folder.write("""
            name: fallback-\(testCase.name)
            background: "#ff00ff"
            layers:
              - id: naturalearth
                source: {type: xyz, path: "\(folder.url.path)/tiles/{z}/{x}/{y}.png", minzoom: \(levels[0]), maxzoom: \(levels[1])}
                fallback: {\(testCase.fallback.map { "\($0.key): \($0.value)" }.sorted().joined(separator: ", "))}
            """, to: "style.yaml"))
        let result = try await MapRenderer(style: style, options: RenderOptions(attribution: false))
            .render(try testCase.viewport.makeViewport())

        let layer = result.report.layers[0]
        #expect(layer.level == testCase.level)
        let inView = Set(testCase.tilesInView.map { "\($0[0])/\($0[1])/\($0[2])" })
        let reported = Dictionary(layer.tiles.map { ("\($0.level)/\($0.column)/\($0.row)", $0) }) { first, _ in first }
        let standIns = Dictionary(uniqueKeysWithValues: testCase.fallbacks.map { ("\($0.tile[0])/\($0.tile[1])/\($0.tile[2])", $0) })
        for key in inView.sorted() {
            let tile = try #require(reported[key], "no report for \(key)")
            if let standIn = standIns[key] {
                #expect(tile.status.rawValue == standIn.status, "\(key): \(tile.status)")
                #expect(tile.fallbackLevel == standIn.fallbackLevel, "\(key): fallback level \(tile.fallbackLevel.map(String.init) ?? "none")")
            } else {
                #expect(tile.status == .exact, "\(key): \(tile.status)")
                #expect(tile.fallbackLevel == nil, "\(key)")
            }
        }

        let expected = try GoldenComparison.load(TestPaths.fixture("Fallback/expected/\(testCase.expected)"))
        let comparison = GoldenComparison(name: "fallback-\(testCase.name)", threshold: 0.1, maxDifferingFraction: 0.01)
        let outcome = try comparison.compare(actual: result.image, expected: expected)
        print("fallback \(testCase.name): \(outcome.summary)")
        #expect(outcome.passed, "\(outcome.summary); see \(outcome.resultsFolder?.path ?? "")")
    }
}
