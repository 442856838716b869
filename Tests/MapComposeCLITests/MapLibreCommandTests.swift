import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// `mapcompose --style style.json` with a MapLibre style.
@Suite struct MapLibreCommandTests {
    static let tiles = TestPaths.fixture("MapLibre/ne-omt.pmtiles").path

    @Test func rendersAndNamesEachLayerNotDrawnOnce() throws {
        let folder = try TemporaryFolder()
        try folder.write("""
            {"version": 8, "sources": {"omt": {"type": "vector", "url": "pmtiles://\(Self.tiles)"}},
             "layers": [
              {"id": "land", "type": "background", "paint": {"background-color": "#f2efe9"}},
              {"id": "water", "type": "fill", "source": "omt", "source-layer": "water", "paint": {"fill-color": "#a0c8f0"}},
              {"id": "relief", "type": "hillshade", "source": "omt"},
              {"id": "towers", "type": "fill-extrusion", "source": "omt", "source-layer": "water"}
             ]}
            """, to: "style.json")
        let run = try CLIRunner.run(["--style", "style.json", "--center", "48,10", "--zoom", "4", "--size", "128x96", "map.png"],
                                    in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderrLines == ["warning: style.json: layer 'relief': hillshade layers are not drawn",
                                    "warning: style.json: layer 'towers': fill-extrusion layers are not drawn"])
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("map.png").path))
    }

    /// A patterned line drawn in bands of rows (MapLibrePainter+Bands.swift): where a band starts
    /// can move the pattern's samples by a level, so the bands must not depend on the cores.
    /// Held to one core by `taskset`, the process must write the same bytes.
    @Test func aPatternedLineIsTheSameFileOnOneCoreAsOnAll() throws {
        let folder = try TemporaryFolder()
        for name in ["line-patterns.json", "line-patterns.png"] {
            try FileManager.default.copyItem(at: TestPaths.fixture("MapLibre/\(name)"), to: folder.url.appendingPathComponent(name))
        }
        try folder.write("""
            {"version": 8, "sprite": "line-patterns", "sources": {"omt": {"type": "vector", "url": "pmtiles://\(Self.tiles)"}},
             "layers": [
              {"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
              {"id": "ribbon", "type": "line", "source": "omt", "source-layer": "boundary",
               "paint": {"line-pattern": "quarters", "line-width": 4}}
             ]}
            """, to: "style.json")
        let arguments = ["--style", "style.json", "--center", "48,10", "--zoom", "5", "--size", "1024x768", "--no-attribution"]
        let (all, one) = try CLIRunner.filesOnAllCoresAndOne(arguments, in: folder.url)
        #expect(!all.isEmpty && all == one, "the map drawn on one core differs from the one drawn on all")
        let image = try GoldenComparison.load(folder.url.appendingPathComponent("all.png"))
        let patterned = (0..<image.height).reduce(0) { sum, y in sum + (0..<image.width).count { image.rgba(x: $0, y: y) != .white } }
        #expect(patterned > 10_000, "the borders are drawn with their pattern")
    }

    @Test func aBadMapLibreStyleExitsTwoWithTheKeyPath() throws {
        let folder = try TemporaryFolder()
        try folder.write("""
            {"version": 8, "sources": {}, "layers": [{"id": "land", "type": "background", "paint": {"background-color": 12}}]}
            """, to: "bad.json")
        let run = try CLIRunner.run(["--style", "bad.json", "--center", "48,10", "--zoom", "4", "map.png"], in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderr.contains("bad.json: layers[0].paint.background-color: Expected color but found number instead."),
                "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("map.png").path))
    }

    @Test func batchJobsNameAMapLibreStyle() throws {
        let folder = try TemporaryFolder()
        try folder.write("""
            {"version": 8, "sources": {"omt": {"type": "vector", "url": "pmtiles://\(Self.tiles)"}},
             "layers": [{"id": "water", "type": "fill", "source": "omt", "source-layer": "water", "paint": {"fill-color": "#0000ff"}}]}
            """, to: "style.json")
        try folder.write("""
            {"id": "a", "output": "a.png", "center": [45, -20], "zoom": 4, "size": "64x64", "style": "style.json"}
            {"id": "b", "output": "b.png", "center": [0, -140], "zoom": 2, "size": "64x64", "style": "style.json"}

            """, to: "jobs.jsonl")
        let run = try CLIRunner.run(["batch", "jobs.jsonl", "--out", "maps"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        for name in ["a", "b"] {
            let image = try GoldenComparison.load(folder.url.appendingPathComponent("maps/\(name).png"))
            #expect(image.rgba(x: 32, y: 32) == RGBA(r: 0, g: 0, b: 255), "\(name)")
        }
    }
}
