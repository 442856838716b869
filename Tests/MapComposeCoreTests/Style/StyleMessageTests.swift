import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Style problems read as one line that names the place and says what to change.
@Suite struct StyleMessageTests {
    /// The problems of `yaml` loaded as `style.yaml` in a fresh folder, with paths shortened.
    func problems(_ yaml: String, prepare: (TemporaryFolder) throws -> Void = { _ in }) throws -> [String] {
        let folder = try TemporaryFolder()
        try prepare(folder)
        let file = try folder.write(yaml, to: "style.yaml")
        do {
            _ = try StyleLoader.load(file: file)
            return []
        } catch {
            return error.problems.map { $0.description.replacingOccurrences(of: file.relativePath, with: "style.yaml")
                .replacingOccurrences(of: folder.url.path, with: "<dir>") }
        }
    }

    @Test func fullWidthHexDigitsAreNotAColour() throws {
        #expect(RGBA(parsing: "#ＦＦＦ") == nil)
        #expect(RGBA(parsing: "#１２３４５６") == nil)
        #expect(RGBA(parsing: "#FfF") == RGBA(r: 255, g: 255, b: 255))
        #expect(RGBA(parsing: "#12345678") == RGBA(r: 0x12, g: 0x34, b: 0x56, a: 0x78))
        #expect(try problems("background: \"#ＦＦＦ\"\nlayers:\n  - {id: s, source: {type: solid}}\n")
                == ["style.yaml:1: background: '#ＦＦＦ' is not a colour (use #rgb, #rrggbb, #rrggbbaa or a CSS name)"])
    }

    @Test func aFileThatIsNotAStyleIsNamedNotQuoted() throws {
        #expect(try problems("root:*:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n")
                == ["style.yaml: not a style: none of its keys is a style's (name, background, attribution, deadline, env, layers, overlays)"])
        let long = String(repeating: "k", count: 500)
        let found = try problems("\(long): 1\nlayers:\n  - {id: s, source: {type: solid}}\n")
        #expect(found == ["style.yaml:1: \(String(repeating: "k", count: 40))…: unknown key (expected one of: name, background, "
                          + "attribution, deadline, env, layers, overlays)"])
    }

    @Test func aDuplicateKeyIsReportedOnItsOwnLine() throws {
        #expect(try problems("name: a\nname: b\nlayers:\n  - {id: s, source: {type: solid}}\n")
                == ["style.yaml:2: duplicate key 'name' at column 1 (first on line 1)"])
        #expect(try problems("layers:\n  - id: s\n    source: {type: solid,\n      type: debug}\n")
                == ["style.yaml:4: duplicate key 'type' at column 7 (first on line 3)"])
    }

    @Test func tooDeepNestingSaysSoInPlainWords() throws {
        let found = try problems("layers: " + String(repeating: "[", count: 1200) + String(repeating: "]", count: 1200))
        #expect(found.count == 1)
        #expect(found[0].hasPrefix("style.yaml:1: lists and mappings are nested too deeply (more than 1000 levels)"), "\(found)")
        #expect(!found[0].contains("yaml_"))
    }

    @Test func aCheckerboardReportsBadColoursAndSizeTogether() throws {
        #expect(try problems("layers:\n  - id: c\n    source: {type: checkerboard, colors: [nope, \"#zz\"], size: 0}\n") == [
            "style.yaml:3: layers[0].source.colors[0]: 'nope' is not a colour (use #rgb, #rrggbb, #rrggbbaa or a CSS name)",
            "style.yaml:3: layers[0].source.colors[1]: '#zz' is not a colour (use #rgb, #rrggbb, #rrggbbaa or a CSS name)",
            "style.yaml:3: layers[0].source.size: must be between 1 and 256, got 0",
        ])
    }

    @Test func aSymlinkLoopIsNamedAsOne() throws {
        let folder = try TemporaryFolder()
        let first = folder.url.appendingPathComponent("a.yaml"), second = folder.url.appendingPathComponent("b.yaml")
        try FileManager.default.createSymbolicLink(atPath: first.path, withDestinationPath: second.path)
        try FileManager.default.createSymbolicLink(atPath: second.path, withDestinationPath: first.path)
        #expect(throws: StyleError(problems: [StyleProblem(
            file: first.relativePath, line: nil, keyPath: "",
            message: "cannot be resolved: its symbolic links form a loop (Too many levels of symbolic links)")])) {
            try StyleLoader.load(file: first)
        }
        let dangling = folder.url.appendingPathComponent("gone.yaml")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "nowhere.yaml")
        #expect(throws: StyleError(problems: [StyleProblem(
            file: dangling.relativePath, line: nil, keyPath: "",
            message: "is a symbolic link to 'nowhere.yaml', which does not exist")])) {
            try StyleLoader.load(file: dangling)
        }
    }

    @Test func anEmptyStyleNameSaysSo() {
        #expect(throws: StyleError(problems: [StyleProblem(
            file: "", line: nil, keyPath: "",
            message: "the style name is empty: give a built-in style (default, default-dark) or the path of a style file")])) {
            try StyleLoader.load(nameOrPath: "")
        }
        let problem = StyleProblem(file: "", line: nil, keyPath: "", message: "the style name is empty")
        #expect(problem.description == "the style name is empty", "no location before the message")
    }

    @Test func foldersWhereFilesShouldBeAreNamed() throws {
        let found = try problems("""
            layers:
              - {id: g, source: {type: geojson, path: shapes}}
              - {id: m, source: {type: mbtiles, path: shapes}}
              - {id: x, source: {type: xyz, path: "plain/{z}/{x}/{y}.png"}}
            """) { folder in
            try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("shapes"), withIntermediateDirectories: true)
            try folder.write("not a folder", to: "plain")
        }
        #expect(found == [
            "style.yaml:2: layers[0].source.path: 'shapes' is a folder, not a file",
            "style.yaml:3: layers[1].source.path: 'shapes' is a folder, not a file",
            "style.yaml:4: layers[2].source.path: 'plain/' is a file, not a folder (looked for <dir>/plain)",
        ])
        #expect(found.allSatisfy { !$0.contains("NSCocoaErrorDomain") && !$0.contains("could not be completed") })
    }

    @Test func aMinzoomAboveTheDefaultMaxzoomDoesNotTrap() throws {
        let folder = try TemporaryFolder()
        try folder.write(try TileFixtures.solidPNG(.white, size: 8), to: "t/30/0/0.png")
        let file = try folder.write("""
            layers:
              - {id: only-min, source: {type: xyz, minzoom: 30, path: "t/{z}/{x}/{y}.png"}}
              - {id: both, source: {type: xyz, minzoom: 30, maxzoom: 30, path: "t/{z}/{x}/{y}.png"}}
            """, to: "style.yaml")
        let style = try StyleLoader.load(file: file)
        #expect(style.layers.map(\.source.info.nativeZoom) == [30...30, 30...30])
        #expect(try problems("layers:\n  - {id: x, source: {type: xyz, minzoom: 31, path: \"{z}/{x}/{y}.png\"}}\n")
                == ["style.yaml:2: layers[0].source.minzoom: must be between 0 and 30, got 31"])
        #expect(try problems("layers:\n  - {id: l, maxzoom: 31, source: {type: solid}}\n")
                == ["style.yaml:2: layers[0].maxzoom: must be between 0 and 30, got 31"])
    }

    @Test func tileSizeIsReadAndChecked() throws {
        let folder = try TemporaryFolder()
        try folder.write(try TileFixtures.solidPNG(.white, size: 8), to: "t/1/0/0.png")
        _ = try MBTilesWriter(file: folder.url.appendingPathComponent("m.mbtiles"), metadata: [:])
        let file = try folder.write("""
            layers:
              - {id: a, source: {type: xyz, tile-size: 512, path: "t/{z}/{x}/{y}.png"}}
              - {id: b, source: {type: xyz, path: "t/{z}/{x}/{y}.png"}}
              - {id: c, source: {type: mbtiles, tile-size: 512, path: m.mbtiles}}
            """, to: "style.yaml")
        let sizes = try StyleLoader.load(file: file).document.layers.map { layer -> Int? in
            switch layer.source {
            case .xyz(let spec): return spec.tileSize
            case .mbtiles(let spec): return spec.tileSize
            default: return nil
            }
        }
        #expect(sizes == [512, 256, 512])
        #expect(try problems("layers:\n  - {id: c, source: {type: checkerboard, tile-size: 512}}\n")
                == ["style.yaml:2: layers[0].source.tile-size: unknown key (expected one of: type, colors, size)"])
        let bad = try problems("layers:\n  - {id: a, source: {type: mbtiles, tile-size: 300, path: m.mbtiles}}\n") { folder in
            _ = try MBTilesWriter(file: folder.url.appendingPathComponent("m.mbtiles"), metadata: [:])
        }
        #expect(bad == ["style.yaml:2: layers[0].source.tile-size: expected one of 256, 512, got '300'"])
    }
}
