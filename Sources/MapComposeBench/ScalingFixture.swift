import Foundation
import MapComposeCore
import MapComposeTestSupport

/// `MapComposeBench scaling-fixture DIR [COUNT]`: the fixture of `scripts/bench/scaling.py`,
/// how `batch` scales with cores. One MBTiles file (PNG tiles of the built-in style's
/// countries, levels 5…8, over a region of Europe), a style of that one layer, and a manifest
/// of COUNT (default 8,000) maps of 512×512 at fractional zooms 5…8 inside the region, in a
/// fixed pseudo-random order (`manifest.jsonl`).
enum ScalingFixture {
    static func write(to folder: URL, count: Int) async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let area = try Viewport.fitting(BatchBench.region, width: 1024, height: 1024, fractionalZoom: true).extent
        let countries = try StyleLoader.load(nameOrPath: "default").layers[0].source
        let stored = try await BenchTiles.write(folder.appendingPathComponent("countries.mbtiles"), from: countries,
                                                format: .png, levels: 5...8, covering: area)
        try """
            name: countries
            background: "#aad3df"
            layers:
              - {id: countries, source: {type: mbtiles, path: countries.mbtiles}}
            """.write(to: folder.appendingPathComponent("countries.yaml"), atomically: true, encoding: .utf8)
        var generator = SplitMix(state: 8000)
        try BatchBench.writeManifest(folder.appendingPathComponent("manifest.jsonl"), count: count, zooms: 5...8,
                                     style: "countries.yaml", using: &generator)
        print("scaling fixture: \(stored) tiles in countries.mbtiles, a manifest of \(count) maps in \(folder.path)")
    }
}
