import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// `mapcompose basemap build|where`, and the built-in styles drawing the world basemap: a
/// basemap built from a small sample world, and a user's own Protomaps extract (central
/// Helsinki from OpenStreetMap, Tests/Fixtures/Basemap) whose streets the default style draws.
@Suite struct BasemapCommandTests {
    static let helsinki = TestPaths.fixture("Basemap/helsinki-protomaps.pmtiles").path

    /// The fraction of pixels of `image` within `tolerance` of `hex` (#rrggbb) in each channel.
    static func share(_ image: RGBAImage, _ hex: String, tolerance: Int = 3) -> Double {
        let value = Int(hex.dropFirst(), radix: 16)!
        let want = [(value >> 16) & 255, (value >> 8) & 255, value & 255]
        let hits = image.pixels.filter { p in
            let got = [Int(p & 255), Int((p >> 8) & 255), Int((p >> 16) & 255)]
            return zip(got, want).allSatisfy { abs($0 - $1) <= tolerance }
        }
        return Double(hits.count) / Double(image.pixels.count)
    }

    static func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> String {
        let p = image.pixels[y * image.width + x]
        return String(format: "#%02x%02x%02x", p & 255, (p >> 8) & 255, (p >> 16) & 255)
    }

    /// The sample world built by the CLI into `folder/basemap.pmtiles`.
    static func buildSample(in folder: TemporaryFolder) throws -> String {
        let sources = folder.url.appendingPathComponent("sources")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try SampleWorld.write(to: sources)
        let output = folder.url.appendingPathComponent("basemap.pmtiles").path
        let run = try CLIRunner.run(["basemap", "build", "--sources", sources.path, "--output", output, "--max-zoom", "7"],
                                    in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("wrote \(output): "), "\(run.stdout)")
        return output
    }

    @Test func theDefaultStyleDrawsTheBasemapLandLakeIsletAndLabel() throws {
        let folder = try TemporaryFolder()
        let basemap = try Self.buildSample(in: folder)
        // The islet in the lake at 15° E, 5° N; the lake around it; the sea west of the island.
        let run = try CLIRunner.run(["--center", "5,15", "--zoom", "7", "--size", "400x400", "map.png"], in: folder.url,
                                    environment: CLIRunner.environment(basemap: basemap))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        let image = try StraightPNGDecoder.decode(file: folder.url.appendingPathComponent("map.png").path)
        #expect(Self.pixel(image, 200, 200) == "#f3f0e8", "the islet is land")
        #expect(Self.pixel(image, 200, 150) == "#a8cbe0", "the lake is water")
        #expect(Self.pixel(image, 100, 100) == "#f3f0e8", "the island is land")
        let dark = try CLIRunner.run(["--style", "default-dark", "--center", "5,15", "--zoom", "7", "--size", "400x400", "dark.png"],
                                     in: folder.url, environment: CLIRunner.environment(basemap: basemap))
        #expect(dark.status == 0, "\(dark.stderr)")
        let night = try StraightPNGDecoder.decode(file: folder.url.appendingPathComponent("dark.png").path)
        #expect(Self.pixel(night, 200, 200) == "#2b2d30" && Self.pixel(night, 200, 150) == "#1b2a38")
        // The sea: the background, west of the island at 10° E.
        let sea = try CLIRunner.run(["--center", "5,8", "--zoom", "7", "--size", "64x64", "--no-attribution", "sea.png"], in: folder.url,
                                    environment: CLIRunner.environment(basemap: basemap))
        #expect(sea.status == 0, "\(sea.stderr)")
        let water = try StraightPNGDecoder.decode(file: folder.url.appendingPathComponent("sea.png").path)
        #expect(Self.share(water, "#a8cbe0", tolerance: 0) == 1)
    }

    @Test func theBackgroundFillsTheCanvasPastTheWorldsEdges() throws {
        let folder = try TemporaryFolder()
        let basemap = try Self.buildSample(in: folder)
        // At zoom 1 an 800x600 map is taller than the world: MapLibre paints the background there too.
        let run = try CLIRunner.run(["--center", "0,0", "--zoom", "1", "--no-attribution", "world.png"], in: folder.url,
                                    environment: CLIRunner.environment(basemap: basemap))
        #expect(run.status == 0, "\(run.stderr)")
        let image = try StraightPNGDecoder.decode(file: folder.url.appendingPathComponent("world.png").path)
        #expect(Self.pixel(image, 400, 1) == "#a8cbe0" && Self.pixel(image, 400, 598) == "#a8cbe0")
        #expect(image.pixels[image.width + 400] >> 24 == 255, "opaque")
    }

    @Test func theLabelIsInTheLocalScriptWithItsLatinName() throws {
        let folder = try TemporaryFolder()
        let basemap = try Self.buildSample(in: folder)
        let args = ["--center", "2,12", "--zoom", "6", "--size", "300x200"]
        let with = try CLIRunner.run(args + ["labelled.png"], in: folder.url, environment: CLIRunner.environment(basemap: basemap))
        #expect(with.status == 0, "\(with.stderr)")
        let image = try StraightPNGDecoder.decode(file: folder.url.appendingPathComponent("labelled.png").path)
        // Label text (#3b3631 and its anti-aliased edges) around the place, nowhere else.
        #expect(Self.share(image, "#3b3631", tolerance: 40) > 0.001)
    }

    @Test func theDefaultStyleDrawsTheStreetsOfAUsersProtomapsExtract() throws {
        let folder = try TemporaryFolder()
        let args = ["--center", "60.1695,24.9440", "--zoom", "16", "--size", "512x512"]
        let run = try CLIRunner.run(args + ["--basemap", Self.helsinki, "streets.png"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let image = try StraightPNGDecoder.decode(file: folder.url.appendingPathComponent("streets.png").path)
        // Street fill (white) and casings, buildings, earth.
        #expect(Self.share(image, "#ffffff", tolerance: 0) > 0.03)
        #expect(Self.share(image, "#cfc6ba") + Self.share(image, "#ddd6cc") > 0.005)
        #expect(Self.share(image, "#ddd5cb") > 0.05, "buildings")
        // Without the extract the same view is the 1:110m style: no streets.
        let bare = try CLIRunner.run(args + ["bare.png"], in: folder.url)
        #expect(bare.status == 0)
        let plain = try StraightPNGDecoder.decode(file: folder.url.appendingPathComponent("bare.png").path)
        #expect(Self.share(plain, "#ffffff", tolerance: 0) < 0.001)
    }

    @Test func aMissingBasemapIsAnErrorNamingIt() throws {
        let folder = try TemporaryFolder()
        let run = try CLIRunner.run(["--basemap", "nowhere.pmtiles", "--center", "0,0", "--zoom", "3", "map.png"], in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderr.contains("the basemap 'nowhere.pmtiles' (MAPCOMPOSE_BASEMAP or --basemap)"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("map.png").path))
        // A style naming the basemap when none is installed says how to get one.
        let style = try CLIRunner.run(["--style", TestPaths.repositoryRoot.appendingPathComponent("Styles/default.json").path,
                                       "--center", "0,0", "--zoom", "3", "map.png"], in: folder.url)
        #expect(style.status == 2)
        #expect(style.stderr.contains("no world basemap is installed: build it with `make basemap`"), "\(style.stderr)")
    }

    @Test func buildNeverReplacesAFileThatIsNotAnArchive() throws {
        let folder = try TemporaryFolder()
        let precious = try folder.write("my notes\n", to: "notes.txt")
        let run = try CLIRunner.run(["basemap", "build", "--sources", folder.url.path, "--output", precious.path], in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderr.contains("exists and is not a PMTiles archive: it is left as it is"), "\(run.stderr)")
        #expect(try String(contentsOf: precious, encoding: .utf8) == "my notes\n")
        let missing = try CLIRunner.run(["basemap", "build", "--sources", folder.url.appendingPathComponent("none").path,
                                         "--output", folder.url.appendingPathComponent("b.pmtiles").path], in: folder.url)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("run scripts/basemap/prepare_sources.py"), "\(missing.stderr)")
    }

    @Test func whereNamesTheFileOrTheFoldersSearched() throws {
        let folder = try TemporaryFolder()
        let found = try CLIRunner.run(["basemap", "where"], in: folder.url, environment: CLIRunner.environment(basemap: Self.helsinki))
        #expect(found.status == 0 && found.stdout == "\(Self.helsinki)\n")
        var environment = CLIRunner.environment(basemap: "")
        environment["XDG_DATA_HOME"] = folder.url.path
        environment["XDG_DATA_DIRS"] = folder.url.appendingPathComponent("system").path
        let none = try CLIRunner.run(["basemap", "where"], in: folder.url, environment: environment)
        #expect(none.status == 1)
        #expect(none.stderrLines.contains("  \(folder.url.path)/mapcompose/basemap.pmtiles"), "\(none.stderr)")
        // Found in the user's data folder.
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("mapcompose"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.helsinki, toPath: folder.url.appendingPathComponent("mapcompose/basemap.pmtiles").path)
        let installed = try CLIRunner.run(["basemap", "where"], in: folder.url, environment: environment)
        #expect(installed.stdout == "\(folder.url.path)/mapcompose/basemap.pmtiles\n", "\(installed.stderr)")
    }
}
