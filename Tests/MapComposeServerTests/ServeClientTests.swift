import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// External programs the client tests drive (GDAL, chromium), found on PATH.
enum ExternalTool {
    static func path(_ name: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/bin:/usr/sbin:/bin"
        for folder in folders.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Whether `name` is installed; when not, prints why the tests that need it are skipped.
    static func available(_ name: String, package: String) -> Bool {
        guard path(name) == nil else { return true }
        print("skipped: \(name) is not installed (Debian package \(package); scripts/install-test-deps.sh installs it)")
        return false
    }

    /// Runs `name ARGUMENTS` in `folder` with `environment` added; returns its exit status and
    /// its standard output and error together. Killed after `timeout` seconds.
    @discardableResult
    static func run(_ name: String, _ arguments: [String], in folder: URL, environment: [String: String] = [:],
                    timeout: Double = 60) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(path(name)))
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let collected = InBackground { output.fileHandleForReading.readDataToEndOfFile() }
        try process.run()
        let end = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < end { usleep(20_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: try collected.result(), as: UTF8.self))
    }
}

/// Web Mercator: the half-width of the world in metres and a tile's corners in degrees.
enum Mercator {
    static let half = 20037508.342789244

    static func lon(_ x: Int, _ z: Int) -> Double { Double(x) / Double(1 << z) * 360 - 180 }
    static func lat(_ y: Int, _ z: Int) -> Double { atan(sinh(Double.pi * (1 - 2 * Double(y) / Double(1 << z)))) * 180 / .pi }
    static func x(_ tile: Int, _ z: Int) -> Double { -half + 2 * half * Double(tile) / Double(1 << z) }
    static func y(_ tile: Int, _ z: Int) -> Double { half - 2 * half * Double(tile) / Double(1 << z) }
}

/// GDAL reads the server's WMS and its XYZ tiles; the images are the CLI's render of the same box.
@Suite(.serialized, .enabled(if: ExternalTool.available("gdal_translate", package: "gdal-bin")))
struct ServeGDALTests {
    /// Tiles x 4…5, y 2…3 of zoom 3: 0…90° E, 0…66.5° N, 512 × 512 pixels at zoom 3's resolution.
    static let z = 3, x0 = 4, y0 = 2

    func cliReference(_ fixture: ServeFixture) throws -> RGBAImage {
        let bbox = "\(Mercator.lon(Self.x0, Self.z)),\(Mercator.lat(Self.y0 + 2, Self.z)),"
            + "\(Mercator.lon(Self.x0 + 2, Self.z)),\(Mercator.lat(Self.y0, Self.z))"
        _ = try cliRender(["--style", "ne.yaml", "--no-cache", "--no-attribution", "--bbox", bbox, "--size", "512x512"],
                          in: fixture.url, output: "cli.png")
        return try StraightPNGDecoder.decode(Data(contentsOf: fixture.url.appendingPathComponent("cli.png")))
    }

    /// gdal_translate on `xml` (written to `name`.xml) with `options`, as PNG; the decoded image.
    func translate(_ xml: String, _ name: String, _ options: [String], _ fixture: ServeFixture) throws -> RGBAImage {
        try fixture.folder.write(xml, to: "\(name).xml")
        let run = try ExternalTool.run("gdal_translate", ["-q", "-of", "PNG"] + options + ["\(name).xml", "\(name).png"],
                                       in: fixture.url, environment: ["GDAL_HTTP_TIMEOUT": "60", "no_proxy": "127.0.0.1",
                                                                     "GDAL_DEFAULT_WMS_CACHE_PATH": fixture.url.appendingPathComponent("gdal-cache").path])
        #expect(run.status == 0, "\(run.output)")
        return try StraightPNGDecoder.decode(Data(contentsOf: fixture.url.appendingPathComponent("\(name).png")))
    }

    func expectClose(_ actual: RGBAImage, _ expected: RGBAImage, _ what: String) throws {
        let diff = try ImageDiff.compare(actual, expected, threshold: 0.1)
        print("\(what): \(diff.summary)")
        #expect(diff.differingFraction <= 0.001, "\(what): \(diff.summary)")
    }

    @Test func gdalReadsTheWMS() throws {
        let fixture = try ServeFixture()
        let server = try fixture.start()
        let minX = Mercator.x(Self.x0, Self.z), maxX = Mercator.x(Self.x0 + 2, Self.z)
        let maxY = Mercator.y(Self.y0, Self.z), minY = Mercator.y(Self.y0 + 2, Self.z)
        let xml = """
            <GDAL_WMS>
              <Service name="WMS">
                <Version>1.1.1</Version>
                <ServerUrl>http://127.0.0.1:\(server.port)/wms?</ServerUrl>
                <SRS>EPSG:3857</SRS>
                <ImageFormat>image/png</ImageFormat>
                <Layers>ne</Layers>
              </Service>
              <DataWindow>
                <UpperLeftX>\(minX)</UpperLeftX><UpperLeftY>\(maxY)</UpperLeftY>
                <LowerRightX>\(maxX)</LowerRightX><LowerRightY>\(minY)</LowerRightY>
                <SizeX>512</SizeX><SizeY>512</SizeY>
              </DataWindow>
              <Projection>EPSG:3857</Projection>
              <BlockSizeX>256</BlockSizeX><BlockSizeY>256</BlockSizeY>
              <BandsCount>3</BandsCount>
            </GDAL_WMS>
            """
        let image = try translate(xml, "wms", [], fixture)
        #expect(image.width == 512 && image.height == 512)
        try expectClose(image, try cliReference(fixture), "GDAL WMS")
        #expect(server.stderr.contains("route=wms") && server.stderr.contains("status=200"), "\(server.stderr.suffix(2000))")
    }

    @Test func gdalReadsTheTilesThroughTheTMSMinidriver() throws {
        let fixture = try ServeFixture()
        let server = try fixture.start()
        let xml = """
            <GDAL_WMS>
              <Service name="TMS">
                <ServerUrl>http://127.0.0.1:\(server.port)/styles/ne/tiles/${z}/${x}/${y}.png</ServerUrl>
              </Service>
              <DataWindow>
                <UpperLeftX>\(-Mercator.half)</UpperLeftX><UpperLeftY>\(Mercator.half)</UpperLeftY>
                <LowerRightX>\(Mercator.half)</LowerRightX><LowerRightY>\(-Mercator.half)</LowerRightY>
                <TileLevel>\(Self.z)</TileLevel><TileCountX>1</TileCountX><TileCountY>1</TileCountY>
                <YOrigin>top</YOrigin>
              </DataWindow>
              <Projection>EPSG:3857</Projection>
              <BlockSizeX>256</BlockSizeX><BlockSizeY>256</BlockSizeY>
              <BandsCount>3</BandsCount>
            </GDAL_WMS>
            """
        let image = try translate(xml, "tms", ["-srcwin", "\(Self.x0 * 256)", "\(Self.y0 * 256)", "512", "512"], fixture)
        #expect(image.width == 512 && image.height == 512)
        try expectClose(image, try cliReference(fixture), "GDAL TMS")
        #expect(server.stderr.contains("route=tile"), "\(server.stderr.suffix(2000))")
    }
}

/// Headless chromium shows the index page and a style's viewer with its tiles.
@Suite(.serialized, .enabled(if: ExternalTool.available("chromium", package: "chromium")))
struct ServeBrowserTests {
    func chromium(_ arguments: [String], _ fixture: ServeFixture) throws -> String {
        let run = try ExternalTool.run("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                                    "--no-first-run", "--user-data-dir=\(fixture.url.path)/chromium",
                                                    "--window-size=512,512"] + arguments,
                                       in: fixture.url, environment: ["HOME": fixture.url.path], timeout: 60)
        #expect(run.status == 0, "\(run.output)")
        return run.output
    }

    @Test func theViewerShowsTheStylesTiles() throws {
        let fixture = try ServeFixture()
        let server = try fixture.start()
        let base = "http://127.0.0.1:\(server.port)"
        let index = try chromium(["--dump-dom", "\(base)/"], fixture)
        #expect(index.contains("href=\"/styles/ne/\""), "\(index)")

        // The view of zoom 3 centred on 0°, 45° E: tiles x 3…4, y 2…5 of zoom 3 fill it.
        let shot = fixture.url.appendingPathComponent("viewer.png")
        _ = try chromium(["--virtual-time-budget=10000", "--screenshot=\(shot.path)", "\(base)/styles/ne/#3/0.00000/45.00000"], fixture)
        let image = try StraightPNGDecoder.decode(Data(contentsOf: shot))
        // The colours the tiles have: the two commonest of tile 3/4/3's, each a share of the page.
        let tile = try StraightPNGDecoder.decode(try server.get("/styles/ne/tiles/3/4/3.png").body)
        func histogram(_ image: RGBAImage) -> [UInt32: Int] {
            var counts: [UInt32: Int] = [:]
            for pixel in image.pixels { counts[pixel | 0xFF00_0000, default: 0] += 1 }   // opaque as screenshots are
            return counts
        }
        let shown = histogram(image), tileColours = histogram(tile).sorted { $0.value > $1.value }.prefix(2).map(\.key)
        let total = image.width * image.height
        let blank = (shown[RGBA(r: 221, g: 221, b: 221).opaqueWord] ?? 0) + (shown[RGBA(r: 255, g: 255, b: 255).opaqueWord] ?? 0)
        let note = "\(image.width)x\(image.height), \(shown.count) colours, page background or white \(blank), "
            + "tile colours \(tileColours.map { String($0, radix: 16) }): \(tileColours.map { shown[$0] ?? 0 })"
        print("chromium viewer screenshot: \(note)")
        #expect(shown.count > 10 && blank < total / 4, "not blank: \(note)")
        for colour in tileColours { #expect((shown[colour] ?? 0) > total / 50, "colour \(String(colour, radix: 16)) shown: \(note)") }
        #expect(server.stderr.components(separatedBy: "route=tile").count > 4, "the page asked for tiles")
    }
}

extension RGBA {
    /// The packed word of this colour, fully opaque, as RGBAImage stores pixels.
    var opaqueWord: UInt32 { RGBAImage.word(RGBA(r: r, g: g, b: b, a: 255)) }
}

/// Three processes behind nginx sharing one cache folder; one is killed under load
/// (scripts/check-serve-nginx.sh, also `make check-serve-nginx`).
@Suite(.enabled(if: ExternalTool.available("nginx", package: "nginx")))
struct ServeScaleOutTests {
    @Test func nginxPassesRequestsOnWhenAProcessIsKilled() throws {
        let run = try ExternalTool.run("bash", ["scripts/check-serve-nginx.sh", ServeProcess.binary.path], in: TestPaths.repositoryRoot,
                                       environment: ["REQUESTS": "300", "CLIENTS": "6"], timeout: 120)
        print(run.output.split(separator: "\n").filter { $0.hasPrefix("check-serve-nginx:") }.joined(separator: "\n"))
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("300 answered 200"), "\(run.output)")
    }
}
