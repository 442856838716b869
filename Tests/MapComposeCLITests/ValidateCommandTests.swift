import Foundation
import MapComposeTestSupport
import Testing

@Suite struct ValidateCommandTests {
    @Test func everyShippedStyleValidates() throws {
        let styles = TestPaths.repositoryRoot.appendingPathComponent("Styles")
        let files = try FileManager.default.contentsOfDirectory(atPath: styles.path).filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted()
        // The styles over the world basemap are checked against a Protomaps-schema extract.
        let run = try CLIRunner.run(["validate"] + files, in: styles, environment: CLIRunner.environment(
            basemap: TestPaths.fixture("Basemap/helsinki-protomaps.pmtiles").path))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == files.count)
        // A MapLibre style counts its own layers.
        let layers = try JSONSerialization.jsonObject(with: Data(contentsOf: styles.appendingPathComponent("maplibre.json")))
        let count = ((layers as? [String: Any])?["layers"] as? [Any])?.count ?? 0
        #expect(count > 1 && run.stdout.contains("ok: maplibre.json (MapLibre style, \(count) layers)\n"), "\(run.stdout)")
        // Styles/wmts.yaml names a MapProxy on 127.0.0.1:8080, which is not running here.
        #expect(run.stderrLines.allSatisfy { $0.hasPrefix("note: wmts.yaml:") }, "\(run.stderr)")
    }

    @Test func aServerThatDoesNotAnswerIsANoteButAnErrorAnswerIsAProblem() throws {
        let server = try TestHTTPServer { request in
            request.path == "/caps.xml" ? .respond(status: 200, headers: [("Content-Type", "text/xml")], body: Data("<Capabilities".utf8))
                                        : .status(404)
        }
        let folder = try TemporaryFolder()
        try folder.write("""
            layers:
              - {id: gone, source: {type: wmts, url: "http://127.0.0.1:9/caps.xml", retries: 0}}
              - {id: json, source: {type: tilejson, url: "http://127.0.0.1:9/tiles.json", retries: 0}}
            """, to: "unreachable.yaml")
        try folder.write("""
            layers:
              - {id: missing, source: {type: wmts, url: "\(server.baseURL)/nothing.xml"}}
              - {id: broken, source: {type: wmts, url: "\(server.baseURL)/caps.xml"}}
            """, to: "answered.yaml")
        let unreachable = try CLIRunner.run(["validate", "--cache-dir", folder.url.appendingPathComponent("cache").path,
                                             "unreachable.yaml"], in: folder.url)
        #expect(unreachable.status == 0, "\(unreachable.stderr)")
        #expect(unreachable.stdout == "ok: unreachable.yaml (2 layers)\n")
        #expect(unreachable.stderrLines == [
            "note: unreachable.yaml:2: layers[0].source.url: not checked against its server: WMTS 'http://127.0.0.1:9/caps.xml': connection failed: Connection refused from http://127.0.0.1:9/caps.xml",
            "note: unreachable.yaml:3: layers[1].source.url: not checked against its server: TileJSON 'http://127.0.0.1:9/tiles.json': connection failed: Connection refused from http://127.0.0.1:9/tiles.json",
        ])
        let answered = try CLIRunner.run(["validate", "--cache-dir", folder.url.appendingPathComponent("cache").path,
                                          "answered.yaml"], in: folder.url)
        #expect(answered.status == 2)
        #expect(answered.stderrLines.count == 2)
        #expect(answered.stderrLines.first?.hasPrefix("error: answered.yaml:2: layers[0].source.url: WMTS '\(server.baseURL)/nothing.xml': HTTP 404") == true,
                "\(answered.stderr)")
        #expect(answered.stderrLines.last?.hasPrefix("error: answered.yaml:3: layers[1].source.url: WMTS '\(server.baseURL)/caps.xml': malformed XML") == true,
                "\(answered.stderr)")
    }

    @Test func badYAMLExitsTwoWithFileLineAndColumn() throws {
        let folder = try TemporaryFolder()
        try folder.write("layers:\n  - id: a\n    source: [solid\n", to: "bad.yaml")
        let run = try CLIRunner.run(["validate", "bad.yaml"], in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderrLines == ["error: bad.yaml:4: YAML syntax error at column 1: while parsing a flow sequence did not find expected ',' or ']'"])
    }

    @Test func unknownSourceTypeAndMissingFileAreBothReported() throws {
        let folder = try TemporaryFolder()
        try folder.write("""
            layers:
              - id: a
                source: {type: wfs}
              - id: b
                source: {type: mbtiles, path: data/missing.mbtiles}
            """, to: "s.yaml")
        let run = try CLIRunner.run(["validate", "s.yaml", "default"], in: folder.url)
        #expect(run.status == 2)
        let lines = run.stderrLines.map { $0.replacingOccurrences(of: folder.url.resolvingSymlinksInPath().path, with: "<dir>")
            .replacingOccurrences(of: folder.url.path, with: "<dir>") }
        #expect(lines == [
            "error: s.yaml:3: layers[0].source.type: unknown source type 'wfs' (expected one of: xyz, tilejson, wms, wmts, mbtiles, pmtiles, geojson, arcgis, maplibre, solid, checkerboard, debug)",
            "error: s.yaml:5: layers[1].source.path: no such file 'data/missing.mbtiles' (looked in <dir>/data)",
        ])
        #expect(run.stdout == "ok: default (3 layers)\n")
    }

    @Test func emptyAndMissingStyleNamesPointToTheBuiltInList() throws {
        let folder = try TemporaryFolder()
        let run = try CLIRunner.run(["validate", "", "nope.yaml", "default"], in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderrLines == [
            "error: the style name is empty: give a style file or the name of a built-in style (`mapcompose styles` lists them)",
            "error: nope.yaml: no such style file, and no built-in style has that name (`mapcompose styles` lists them)",
        ])
        #expect(run.stdout == "ok: default (3 layers)\n")
    }
}
