import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

@Suite struct StyleLoaderTests {
    /// Loads `yaml` written as `style.yaml` in a fresh folder and returns the problems' text.
    func problems(_ yaml: String, files: [String: Data] = [:]) throws -> [String] {
        let folder = try TemporaryFolder()
        for (name, data) in files { try folder.write(data, to: name) }
        let file = try folder.write(yaml, to: "style.yaml")
        do {
            _ = try StyleLoader.load(file: file)
            return []
        } catch {
            let prefix = file.relativePath
            return error.problems.map { $0.description.replacingOccurrences(of: prefix, with: "style.yaml")
                .replacingOccurrences(of: folder.url.path, with: "<dir>") }
        }
    }

    @Test func theDefaultStyleLoadsFromItsFileAndBuiltIn() throws {
        let fromDisk = try StyleLoader.load(file: TestPaths.repositoryRoot.appendingPathComponent("Styles/default.yaml"))
        let builtIn = try BuiltInStyleData.load("default")
        #expect(fromDisk.layers.map(\.spec.id) == ["countries", "capitals", "capital-labels"])
        #expect(builtIn.layers.map(\.spec.id) == fromDisk.layers.map(\.spec.id))
        #expect(builtIn.document.background == RGBA(parsing: "#aad3df"))
    }

    @Test func embeddedDefaultStyleMatchesStylesFolder() throws {
        let style = try #require(BuiltInStyle.named("default"))
        let root = TestPaths.repositoryRoot.appendingPathComponent("Styles")
        #expect(style.text == (try String(contentsOf: root.appendingPathComponent("default.yaml"), encoding: .utf8)),
                "run scripts/embed-default-style.py")
        for (path, text) in style.files {
            #expect(Data(text.utf8) == (try Data(contentsOf: root.appendingPathComponent(path))), "\(path) differs; run scripts/embed-default-style.py")
        }
    }

    @Test func everyStyleInStylesValidates() throws {
        let root = TestPaths.repositoryRoot.appendingPathComponent("Styles")
        let files = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }
        #expect(files.count >= 6)
        for file in files {
            // Styles/wmts.yaml's MapProxy is not running: its capabilities are a note, not a problem.
            let remote = RemoteEnvironment(client: TileHTTPClient(environment: [:]), cache: nil, documentsMayBeUnreachable: true)
            #expect(throws: Never.self, "\(file)") { try StyleLoader.load(file: root.appendingPathComponent(file), remote: remote) }
        }
    }

    @Test func yamlSyntaxErrorsGiveLineAndColumn() throws {
        let found = try problems("name: x\nlayers:\n  - id: a\n    source: {type: solid\n")
        #expect(found.count == 1)
        #expect(found[0].hasPrefix("style.yaml:5: YAML syntax error at column 1: "), "\(found)")
    }

    @Test func everyProblemIsReportedAtOnceWithLineAndKeyPath() throws {
        let yaml = """
            name: broken
            background: "#12"
            layers:
              - id: a
                opacity: 1.5
                source:
                  type: wms2
              - id: b
                blend: sparkle
                source:
                  type: geojson
                  path: data/nothing.geojson
              - id: a
                minzoom: x
                source:
                  type: solid
                  colour: red
            """
        let found = try problems(yaml)
        #expect(found == [
            "style.yaml:2: background: '#12' is not a colour (use #rgb, #rrggbb, #rrggbbaa or a CSS name)",
            "style.yaml:5: layers[0].opacity: must be between 0 and 1, got 1.5",
            "style.yaml:7: layers[0].source.type: unknown source type 'wms2' (expected one of: xyz, tilejson, wms, wmts, mbtiles, pmtiles, geojson, arcgis, maplibre, solid, checkerboard, debug)",
            "style.yaml:9: layers[1].blend: unknown blend mode 'sparkle' (expected one of: src-over, multiply, screen, overlay, darken, lighten, color-dodge, color-burn, hard-light, soft-light, difference, exclusion, hue, saturation, color, luminosity)",
            "style.yaml:12: layers[1].source.path: no such file 'data/nothing.geojson' (looked in <dir>/data)",
            "style.yaml:13: layers[2].id: duplicate layer id 'a' (first used by layers[0])",
            "style.yaml:14: layers[2].minzoom: expected a number, got 'x'",
            "style.yaml:17: layers[2].source.colour: unknown key (expected one of: type, color)",
        ])
    }

    @Test func missingKeysAreNamed() throws {
        #expect(try problems("name: x\n") == ["style.yaml:1: layers: missing required key"])
        #expect(try problems("layers:\n  - source: {type: solid}\n") == ["style.yaml:2: layers[0].id: missing required key"])
        #expect(try problems("layers:\n  - id: a\n") == ["style.yaml:2: layers[0].source: missing required key"])
    }

    @Test func missingFolderAndMBTilesAreReported() throws {
        let found = try problems("""
            layers:
              - id: tiles
                source: {type: xyz, path: "tiles/{z}/{x}/{y}.png"}
              - id: db
                source: {type: mbtiles, path: base.mbtiles}
              - id: bad
                source: {type: xyz, path: "tiles/{z}/{x}/{row}.png"}
            """)
        #expect(found == [
            "style.yaml:3: layers[0].source.path: no such folder 'tiles/' (looked for <dir>/tiles)",
            "style.yaml:5: layers[1].source.path: no such file 'base.mbtiles' (looked in <dir>)",
            "style.yaml:7: layers[2].source.path: 'tiles/{z}/{x}/{row}.png': unknown placeholder {row} (use {z}, {x}, {y}, {-y} or {quadkey}; in URLs also {s} and {r})",
        ])
    }

    @Test func corruptDataFilesAreReportedAgainstTheirKey() throws {
        let found = try problems("""
            layers:
              - id: shapes
                source: {type: geojson, path: shapes.geojson}
              - id: db
                source: {type: mbtiles, path: fake.mbtiles}
            """, files: ["shapes.geojson": Data("{\"type\": \"FeatureCollection\"}".utf8),
                         "fake.mbtiles": Data("not a database, just text that is long enough".utf8)])
        #expect(found.count == 2)
        #expect(found[0] == "style.yaml:3: layers[0].source.path: 'shapes.geojson': FeatureCollection has no \"features\" array")
        #expect(found[1].hasPrefix("style.yaml:5: layers[1].source.path: cannot read as SQLite: "), "\(found[1])")
    }

    @Test func jsonStylesAreAccepted() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(##"{"name": "j", "layers": [{"id": "s", "source": {"type": "solid", "color": "#ff0000"}}]}"##,
                                    to: "style.json")
        let style = try StyleLoader.load(file: file)
        #expect(style.document.name == "j")
        #expect(style.layers.count == 1)
    }

    @Test func explicitZSortsStablyAndRelativePathsResolveAgainstTheStyle() throws {
        let folder = try TemporaryFolder()
        try folder.write(try TileFixtures.solidPNG(.white), to: "sub/tiles/3/1/2.png")
        let file = try folder.write("""
            layers:
              - {id: top, z: 5, source: {type: solid}}
              - {id: first, source: {type: solid}}
              - {id: bottom, z: -1, source: {type: solid}}
              - {id: second, source: {type: xyz, path: "tiles/{z}/{x}/{y}.png"}}
            """, to: "sub/style.yaml")
        let style = try StyleLoader.load(file: file)
        #expect(style.layers.map(\.spec.id) == ["bottom", "first", "second", "top"])
        let xyz = try #require(style.layers[2].source as? FolderTileSource)
        #expect(xyz.root.path == folder.url.appendingPathComponent("sub/tiles").standardizedFileURL.path)
        #expect(xyz.info.nativeZoom == 3...3)
    }

    @Test func aFolderSourcesLevelsAreTheNumberedFoldersWithinRange() throws {
        let folder = try TemporaryFolder()
        for level in ["2", "11", "5", "40", "notes", "-1"] {
            try folder.write(try TileFixtures.solidPNG(.white, size: 8), to: "tiles/\(level)/0/0.png")
        }
        try folder.write("", to: "tiles/README")
        let file = try folder.write("layers: [{id: t, source: {type: xyz, path: \"tiles/{z}/{x}/{y}.png\"}}]\n", to: "style.yaml")
        let xyz = try #require(try StyleLoader.load(file: file).layers[0].source as? FolderTileSource)
        #expect(xyz.info.nativeZoom == 2...11, "40 is beyond the deepest level; 'notes', '-1' and files are not levels")
        #expect(xyz.readNow(TileCoord(z: 5, x: 0, y: 0)).origin == folder.url.appendingPathComponent("tiles/5/0/0.png").standardizedFileURL.path)
    }
}
