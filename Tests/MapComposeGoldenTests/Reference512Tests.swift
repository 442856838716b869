import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// What `scripts/reference/make_mapproxy_512.py` wrote for one viewport: the 512-px level it
/// draws and the tiles of that level that cover it.
struct Reference512Entry: Decodable, Sendable {
    let name: String
    let level: Int
    let tiles: [[Int]]

    static let all: [String: Reference512Entry] = {
        struct File: Decodable { let viewports: [Reference512Entry] }
        let data = try! Data(contentsOf: TestPaths.fixture("Reference512/manifest.json"))
        let entries = try! JSONDecoder().decode(File.self, from: data).viewports
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.name, $0) })
    }()
}

/// mapcompose draws MapProxy's 512-px tiles (seeded from the same MapServer mapfile) for each
/// viewport and must match MapServer's own WMS GetMap of the same bbox: at most 1% of pixels
/// may differ at a pixelmatch threshold of 0.1, as for the 256-px tiles.
@Suite struct Reference512Tests {
    static let sourceYAML: String = {
        let root = TestPaths.fixture("Reference512").path
        return "{type: xyz, path: \"\(root)/tiles/{z}/{x}/{y}.png\", tile-size: 512}"
    }()

    @Test("render from MapProxy's 512-px tiles matches MapServer's GetMap", arguments: ReferenceViewport.all)
    func matchesMapServer(_ viewport: ReferenceViewport) async throws {
        #expect(ReferenceViewport.all.count >= 6)
        let entry = try #require(Reference512Entry.all[viewport.name], "no entry in Reference512/manifest.json")
        let (result, outcome) = try await viewport.renderAndCompare(source: Self.sourceYAML,
                                                                    resultsName: "reference512-\(viewport.name)")
        let layer = result.report.layers[0]
        #expect(layer.level == entry.level, "512-px level \(String(describing: layer.level)), expected \(entry.level)")
        #expect(layer.tilesMissing == 0)
        print("reference512 \(viewport.name) [level \(entry.level)]: \(outcome.summary)")
        #expect(outcome.passed, "\(outcome.summary); see \(outcome.resultsFolder?.path ?? "")")
    }
}
