import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

@Suite struct RenderCommandTests {
    @Test func bareFormRendersTheBuiltInDefaultStyleFromAnyFolder() throws {
        let folder = try TemporaryFolder()
        let run = try CLIRunner.run(["--center", "51.5,-0.12", "--zoom", "5", "london.png"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        let image = try GoldenComparison.load(folder.url.appendingPathComponent("london.png"))
        #expect(image.width == 800 && image.height == 600)
        #expect(image.rgba(x: 5, y: 300) == RGBA(parsing: "#aad3df"), "Atlantic is ocean")
        #expect(try CLIRunner.contents(of: folder.url) == ["london.png"])
    }

    @Test func theSameFileOnOneCoreAsOnAll() throws {
        // A resampled layer under a translucent one, drawn in bands: held to one core by
        // `taskset`, the process must write the same bytes.
        let folder = try TemporaryFolder()
        try folder.write("""
            background: "#ffffff"
            layers:
              - {id: c, source: {type: checkerboard, colors: ["#d9d2c3", "#204080"], size: 7}}
              - {id: d, opacity: 0.6, source: {type: debug, color: "#b00020"}}
            """, to: "s.yaml")
        let arguments = ["--style", "s.yaml", "--center", "47.04,8.43", "--zoom", "5.37", "--size", "1024x768", "--no-attribution"]
        let (all, one) = try CLIRunner.filesOnAllCoresAndOne(arguments, in: folder.url)
        #expect(!all.isEmpty && all == one, "the map drawn on one core differs from the one drawn on all")
    }

    @Test func negativeLatitudeCenterJPEGWithReportAndRetinaScale() throws {
        let folder = try TemporaryFolder()
        let run = try CLIRunner.run(["render", "--center", "-33.9,151.2", "--zoom", "4.5", "--size", "300x200",
                                     "--scale", "2", "--quality", "80", "--report", "r.json", "sydney.jpg"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let image = try GoldenComparison.load(folder.url.appendingPathComponent("sydney.jpg"))
        #expect(image.width == 600 && image.height == 400)
        let report = try JSONDecoder().decode(RenderReport.self, from: Data(contentsOf: folder.url.appendingPathComponent("r.json")))
        #expect(report.pixels == [600, 400])
        #expect(report.layers.map(\.id) == ["countries", "capitals", "capital-labels"])
        #expect(report.layers[0].tilesDrawn > 0 && report.layers[0].level == 5, "@2x tiles of round(4.5 + 1 - 1)")
    }

    @Test func bboxPicksAZoomThatFits() throws {
        let folder = try TemporaryFolder()
        let run = try CLIRunner.run(["--bbox", "-11,49,2,61", "--size", "400x400", "--padding", "10",
                                     "--report", "r.json", "uk.png"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONDecoder().decode(RenderReport.self, from: Data(contentsOf: folder.url.appendingPathComponent("r.json")))
        #expect(report.zoom == 4)
    }

    @Test("bad arguments exit 2 with a message that says what to type", arguments: [
        (["--center", "91,0", "--zoom", "3", "o.png"], "error: --center '91,0': latitude 91 is outside -90…90"),
        (["--center", "10,200", "--zoom", "3", "o.png"], "error: --center '10,200': longitude 200 is outside -180…180"),
        (["--center", "london", "--zoom", "3", "o.png"], "error: --center 'london': expected LAT,LON in degrees, e.g. 51.5,-0.12"),
        (["--center", "51.5,-0.12", "o.png"], "error: --center needs --zoom (e.g. --zoom 12)"),
        (["o.png"], "error: give --center LAT,LON with --zoom Z, or --bbox W,S,E,N, or overlays (--marker, --path, --polygon, --circle, --text, --overlay) for the view to fit"),
        (["--center", "1,1", "--zoom", "3", "--size", "20000x100", "o.png"], "error: output of 20000x100 pixels (size × scale) is over the limit of 16384 pixels a side"),
        (["--center", "1,1", "--zoom", "3", "--size", "big", "o.png"], "error: --size 'big': expected WIDTHxHEIGHT in pixels, e.g. 800x600"),
        (["--center", "1,1", "--zoom", "3", "o.gif"], "error: cannot tell the image format of 'o.gif' (name it .png, .jpg, .webp, .pdf or .svg, or pass --format png|jpeg|webp|pdf|svg)"),
        (["--center", "1,1", "--zoom", "3", "missing/o.png"], "error: cannot write 'missing/o.png': folder 'missing' does not exist"),
        (["--center", "1,1", "--zoom", "3", "--style", "nope.yaml", "o.png"], "error: nope.yaml: no such style file, and no built-in style has that name (`mapcompose styles` lists them)"),
        (["--center", "1,1", "--zoom", "3", "--style", "", "o.png"], "error: the style name is empty: give a style file or the name of a built-in style (`mapcompose styles` lists them)"),
        (["--center", "1,1", "--zoom", "3", "--style", "/", "o.png"], "error: /: is a folder, not a style file"),
        (["--center", "1,1", "--zoom", "30", "o.png"], "error: zoom 30 is outside 0…24"),
        (["--center", "1,1", "--zoom", "3", "--scale", "0", "o.png"], "error: scale 0 is outside 0.25…8"),
        (["--bbox", "1,1,2,2", "--padding", "500", "--size", "300x300", "o.png"], "error: padding 500 on every side leaves no room in a 300x300 map"),
        (["--center", "1,1", "--zoom", "-1", "o.png"], "error: zoom -1 is outside 0…24"),
        (["--center", "1,1", "--zoom", "3", "--size", "9223372036854775807x1", "o.png"], "error: output of 9.223372036854776e+18x1 pixels (size × scale) is over the limit of 16384 pixels a side"),
        (["--center", "1,1", "--zoom", "3", "--size", "4611686018427387904x1", "--scale", "2", "o.png"], "error: output of 9.223372036854776e+18x2 pixels (size × scale) is over the limit of 16384 pixels a side"),
        (["--bbox", "-11,49,2,61", "--padding", "9223372036854775807", "o.png"], "error: padding 9223372036854775807 on every side leaves no room in a 800x600 map"),
        (["--center", "1,1", "--zoom", "3", "--scale", "-2", "o.png"], "error: scale -2 is outside 0.25…8"),
        (["--center", "1,1", "--zoom", "3", "--size", "-800x600", "o.png"], "error: --size '-800x600': expected WIDTHxHEIGHT in pixels, e.g. 800x600"),
        (["--center", "1,1", "--zoom", "3", "--quality", "-5", "o.jpg"], "error: --quality -5: expected 1…100"),
        (["--bbox", "1,1,2,2", "--padding", "-5", "o.png"], "error: --padding -5: padding must be 0 or more pixels"),
        (["--bbox", "1,1,2,2", "--padding=-5", "o.png"], "error: --padding -5: padding must be 0 or more pixels"),
        (["--center", "1,1", "--zoom", "3", "--size", "1x1", "--scale", "0.4", "o.png"], "error: --size 1x1 at --scale 0.4 would be under 1 pixel (0x0): use a larger --size or --scale"),
        (["--center", "1,1", "--zoom", "3", "--format", "jpeg", "o.png"], "error: --format jpeg contradicts the output name 'o.png' (.png means PNG): drop --format, or name the output .jpg"),
        (["--center", "1,1", "--zoom", "3", "--format", "png", "o.JPEG"], "error: --format png contradicts the output name 'o.JPEG' (.JPEG means JPEG): drop --format, or name the output .png"),
        (["--center", "1,1", "--zoom", "3", "--report", "-", "-"], "error: the image and --report cannot both go to standard output (-): write the report to a file, e.g. --report report.json"),
        (["--center", "1,1", "--zoom", "3", "/proc/o.png"], "error: cannot write '/proc/o.png': cannot create a file in '/proc': No such file or directory"),
        (["--center", "1,1", "--zoom", "3", "--report", "/proc/r.json", "o.png"], "error: cannot write '/proc/r.json': cannot create a file in '/proc': No such file or directory"),
    ])
    func badArguments(_ arguments: [String], _ message: String) throws {
        let folder = try TemporaryFolder()
        let run = try CLIRunner.run(arguments, in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderrLines == [message])
        #expect(try CLIRunner.contents(of: folder.url).isEmpty, "no partial output")
    }

    @Test func badStyleFileExitsTwoBeforeWritingAnything() throws {
        let folder = try TemporaryFolder()
        try folder.write("layers:\n  - id: x\n    source: {type: tiles}\n", to: "bad.yaml")
        let run = try CLIRunner.run(["--style", "bad.yaml", "--center", "1,1", "--zoom", "3", "o.png"], in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderrLines == ["error: bad.yaml:3: layers[0].source.type: unknown source type 'tiles' (expected one of: xyz, tilejson, wms, wmts, mbtiles, pmtiles, geojson, arcgis, maplibre, solid, checkerboard, debug)"])
        #expect(try CLIRunner.contents(of: folder.url) == ["bad.yaml"], "no partial or temporary output")
    }

    @Test func outputPathThatIsAFolderIsRefused() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("out.png"), withIntermediateDirectories: false)
        let run = try CLIRunner.run(["--center", "1,1", "--zoom", "3", "out.png"], in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderrLines == ["error: cannot write 'out.png': it is a folder"])
    }

    @Test func unparsableOptionExitsTwoWithUsage() throws {
        let folder = try TemporaryFolder()
        let run = try CLIRunner.run(["--center", "1,1", "--zoom", "many", "o.png"], in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderr.contains("--zoom"))
    }

    @Test func verboseLogsEachLayer() throws {
        let folder = try TemporaryFolder()
        let run = try CLIRunner.run(["-v", "--center", "51.5,-0.12", "--zoom", "5", "london.png"], in: folder.url)
        #expect(run.status == 0)
        let lines = run.stderrLines
        #expect(lines.count == 4)
        #expect(lines[0].hasSuffix("info mapcompose: [MapComposeCLI] layer 'countries' (geojson): level 5, opacity 1.00, src-over, 12 tiles drawn, 0 missing"), "\(lines)")
        #expect(lines[3].contains("london.png: 800x600 px at zoom 5.0, 0 tiles decoded, "))
    }

    @Test func stylesListsTheBuiltInStyles() throws {
        let run = try CLIRunner.run(["styles"], in: FileManager.default.temporaryDirectory)
        #expect(run.status == 0)
        #expect(run.stdout == """
            default       the world basemap: land, water, rivers, borders and places (else Natural Earth countries and capitals) \
            (1:110m data, detailed to about zoom 6 until the world basemap is installed; offline)
            default-dark  the default style in dark colours (1:110m data in the default colours, detailed to about zoom 6 \
            until the world basemap is installed; offline)

            """)
    }

    @Test func versionPrintsTheLibraryVersion() throws {
        let run = try CLIRunner.run(["--version"], in: FileManager.default.temporaryDirectory)
        #expect(run.status == 0)
        #expect(run.stdout == "mapcompose \(MapComposeVersion.current)\n")
        #expect(run.stderr.isEmpty)
    }

    @Test("a built-in style rendered past its detail gets one note, and only then", arguments: [
        (6.0, false), (6.5, true), (9.0, true),
    ])
    func builtInStyleNotesItsDetailLimit(_ zoom: Double, _ noted: Bool) throws {
        let folder = try TemporaryFolder()
        let run = try CLIRunner.run(["--center", "51.5,-0.12", "--zoom", "\(zoom)", "--size", "64x64", "o.png"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let note = "note: the built-in 'default' style has 1:110m data, detailed to about zoom 6 because the world basemap is not "
            + "installed: build it with `make basemap` (under a minute; docs/basemap.md) or name a Protomaps PMTiles with --basemap FILE"
        #expect(run.stderrLines == (noted ? [note] : []))
    }

    @Test func ownStyleGetsNoDetailNote() throws {
        let folder = try TemporaryFolder()
        try folder.write("layers:\n  - {id: a, source: {type: solid, color: red}}\n", to: "s.yaml")
        let run = try CLIRunner.run(["--style", "s.yaml", "--center", "0,0", "--zoom", "12", "--size", "64x64", "o.png"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
    }
}

/// Pango and the libraries it brings are loaded only by a process that sets text Pango must set,
/// HarfBuzz only by one that sets text; libxml2 only by one that reads XML.
@Suite struct TextLibraryLoadingTests {
    /// The shared libraries the dynamic loader initialised while `arguments` ran.
    func librariesLoaded(_ arguments: [String], in folder: TemporaryFolder) throws -> [String] {
        var environment = CLIRunner.environment()
        environment["LD_DEBUG"] = "libs"
        let run = try CLIRunner.run(arguments, in: folder.url, environment: environment)
        #expect(run.status == 0, "\(run.stderr.suffix(2000))")
        return run.stderrLines.compactMap { line in
            guard let range = line.range(of: "calling init: ") else { return nil }
            return String(line[range.upperBound...])
        }
    }

    @Test func aMapWithoutTextNeverLoadsPango() throws {
        let folder = try TemporaryFolder()
        try folder.write("layers:\n  - {id: a, source: {type: solid, color: red}}\n", to: "s.yaml")
        let plain = try librariesLoaded(["--style", "s.yaml", "--center", "0,0", "--zoom", "3", "--size", "64x64",
                                         "--no-attribution", "o.png"], in: folder)
        #expect(plain.contains { $0.contains("libcairo.so") })
        #expect(!plain.contains { $0.contains("libpango") || $0.contains("libharfbuzz") || $0.contains("libglib") }, "\(plain)")
        #expect(!plain.contains { $0.contains("libxml2") || $0.contains("libicu") }, "no XML read: \(plain)")

    }

    /// A plain label (Latin, in the default font) is set by HarfBuzz alone: Pango is not loaded;
    /// a label in another script loads Pango.
    @Test func plainTextLoadsHarfBuzzAloneOtherTextLoadsPango() throws {
        let folder = try TemporaryFolder()
        try folder.write("layers:\n  - {id: a, source: {type: solid, color: red}}\n", to: "s.yaml")
        let plain = try librariesLoaded(["--style", "s.yaml", "--center", "0,0", "--zoom", "3", "--size", "64x64",
                                         "--text", "0,0,Null Island", "o.png"], in: folder)
        #expect(plain.contains { $0.contains("libharfbuzz.so") }, "\(plain)")
        #expect(!plain.contains { $0.contains("libpango") }, "\(plain)")

        let other = try librariesLoaded(["--style", "s.yaml", "--center", "0,0", "--zoom", "3", "--size", "64x64",
                                         "--text", "0,0,東京", "o.png"], in: folder)
        #expect(other.contains { $0.contains("libpangocairo-1.0.so") }, "\(other)")
        #expect(other.contains { $0.contains("libharfbuzz.so") })
    }
}
