import Foundation
import MapComposeTestSupport

/// A batch manifest of small maps over the MBTiles fixture, with one broken row and one job
/// naming a missing style: the 2 jobs that must fail.
struct BatchFixture {
    let folder: TemporaryFolder
    let jobs: Int
    /// Manifest positions (0-based) of the broken row and of the missing style.
    let brokenRow: Int, missingStyle: Int

    var manifest: URL { folder.url.appendingPathComponent("jobs.jsonl") }
    var out: URL { folder.url.appendingPathComponent("out") }

    /// Ids of the jobs that can succeed.
    var goodIDs: Set<String> {
        Set((0..<jobs).filter { $0 != brokenRow && $0 != missingStyle }.map { "job-\($0)" })
    }

    init(jobs: Int = 2000, size: Int = 64) throws {
        folder = try TemporaryFolder("mapcompose-batch")
        self.jobs = jobs
        brokenRow = jobs / 4
        missingStyle = jobs / 2 + 1
        let mbtiles = TestPaths.fixture("Reference/naturalearth.mbtiles").path
        try folder.write("""
            name: region
            background: "#aad3df"
            layers:
              - id: base
                source: {type: mbtiles, path: \(mbtiles)}
            """, to: "region.yaml")
        var generator = SplitMix(state: 42)
        var lines: [String] = []
        for index in 0..<jobs {
            if index == brokenRow {
                lines.append("{\"output\": \"broken.png\", \"center\": [50, 10], \"zoom\": ")
                continue
            }
            let lat = 35 + generator.unit() * 25, lon = -10 + generator.unit() * 40, zoom = 2 + generator.unit() * 2.2
            let style = index == missingStyle ? "missing.yaml" : "region.yaml"
            lines.append("{\"id\": \"job-\(index)\", \"output\": \"maps/\(index / 100)/\(index).png\", "
                         + "\"center\": [\(lat), \(lon)], \"zoom\": \(zoom), \"size\": \"\(size)x\(size)\", \"style\": \"\(style)\"}")
        }
        try folder.write(lines.joined(separator: "\n") + "\n", to: "jobs.jsonl")
    }

    /// Every image under `out`, as paths relative to it.
    func writtenImages() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: out.path)
        var names: [String] = []
        while let name = enumerator?.nextObject() as? String {
            if name.hasSuffix(".png") || name.hasSuffix(".tmp") { names.append(name) }
        }
        return names.sorted()
    }

    /// The lines of a results file, decoded.
    func results(_ name: String) throws -> [[String: Any]] {
        let text = try String(contentsOf: folder.url.appendingPathComponent(name), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
        }
    }
}
