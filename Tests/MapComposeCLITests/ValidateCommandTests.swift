import Foundation
import MapComposeTestSupport
import Testing

@Suite struct ValidateCommandTests {
    @Test func everyShippedStyleValidates() throws {
        let styles = TestPaths.repositoryRoot.appendingPathComponent("Styles")
        let files = try FileManager.default.contentsOfDirectory(atPath: styles.path).filter { $0.hasSuffix(".yaml") }.sorted()
        let run = try CLIRunner.run(["validate"] + files, in: styles)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == files.count)
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
                source: {type: wmts}
              - id: b
                source: {type: mbtiles, path: data/missing.mbtiles}
            """, to: "s.yaml")
        let run = try CLIRunner.run(["validate", "s.yaml", "default"], in: folder.url)
        #expect(run.status == 2)
        let lines = run.stderrLines.map { $0.replacingOccurrences(of: folder.url.resolvingSymlinksInPath().path, with: "<dir>")
            .replacingOccurrences(of: folder.url.path, with: "<dir>") }
        #expect(lines == [
            "error: s.yaml:3: layers[0].source.type: unknown source type 'wmts' (expected one of: xyz, tilejson, wms, mbtiles, geojson, arcgis, solid, checkerboard, debug)",
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
