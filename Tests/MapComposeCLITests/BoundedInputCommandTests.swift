import Foundation
import GRDB
import MapComposeTestSupport
import Testing

/// Inputs shaped to exhaust the stack or run forever are refused with a message (exit 2), by
/// `validate` and by a render alike, never ended by a signal.
@Suite struct BoundedInputCommandTests {
    static func expectRefused(_ run: CLIRunner.Outcome, saying text: String) {
        #expect(run.reason == .exit, "ended by signal \(run.status)")
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains(text), "\(run.stderr)")
    }

    @Test func anArcGISConfOfFiftyThousandNestedElementsIsAnError() throws {
        let folder = try TemporaryFolder()
        let depth = 50_000
        try folder.write(String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth), to: "deep/conf.xml")
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("deep/_alllayers"),
                                                withIntermediateDirectories: true)
        try folder.write("layers:\n  - {id: deep, source: {type: arcgis, path: deep}}\n", to: "deep.yaml")
        let message = "conf.xml: malformed XML at line 1, column "
        Self.expectRefused(try CLIRunner.run(["validate", "deep.yaml"], in: folder.url), saying: message)
        let render = try CLIRunner.run(["--style", "deep.yaml", "--center", "0,0", "--zoom", "2", "--size", "64x64", "map.png"],
                                       in: folder.url)
        Self.expectRefused(render, saying: message)
        #expect(render.stderr.contains("elements nest more than 256 deep"), "\(render.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("map.png").path))
    }

    @Test func anMBTilesWhoseTilesAreARecursiveViewIsAnError() throws {
        let folder = try TemporaryFolder()
        let database = try DatabaseQueue(path: folder.url.appendingPathComponent("loop.mbtiles").path)
        try database.write { db in
            try db.execute(sql: """
                CREATE TABLE metadata (name TEXT, value TEXT);
                CREATE VIEW tiles AS WITH RECURSIVE counter(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM counter)
                  SELECT n % 5 AS zoom_level, n AS tile_column, n AS tile_row, zeroblob(10) AS tile_data FROM counter;
                """)
        }
        try database.close()
        try folder.write("layers:\n  - {id: loop, source: {type: mbtiles, path: loop.mbtiles}}\n", to: "loop.yaml")
        let message = "'tiles' is a view, but not one over the 'map' and 'images' tables of a deduplicated MBTiles"
        Self.expectRefused(try CLIRunner.run(["validate", "loop.yaml"], in: folder.url), saying: message)
        Self.expectRefused(try CLIRunner.run(["--style", "loop.yaml", "--center", "0,0", "--zoom", "2", "--size", "64x64",
                                              "map.png"], in: folder.url), saying: message)
    }
}
