import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Named pipes given where a file is expected (`diff`, `--overlay`, `icon=`) are read as streams.
@Suite struct PipeInputTests {
    /// A named pipe at `name` in `folder` that another thread fills with `data` once a reader
    /// opens it (it gives up after 30 s, so a test never hangs on it).
    static func pipe(_ data: Data, named name: String, in folder: TemporaryFolder) throws -> String {
        signal(SIGPIPE, SIG_IGN)
        let path = folder.url.appendingPathComponent(name).path
        try #require(mkfifo(path, 0o600) == 0)
        Thread.detachNewThread {
            let deadline = Date().addingTimeInterval(30)
            var descriptor: Int32 = -1
            while descriptor < 0, Date() < deadline {
                descriptor = open(path, O_WRONLY | O_NONBLOCK)
                if descriptor < 0 { usleep(10_000) }
            }
            guard descriptor >= 0 else { return }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            data.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
            close(descriptor)
        }
        return path
    }

    @Test func diffReadsTwoPipes() throws {
        let folder = try TemporaryFolder()
        let png = try TileFixtures.solidPNG(.white, size: 16)
        let a = try Self.pipe(png, named: "a.png", in: folder), b = try Self.pipe(png, named: "b.png", in: folder)
        let run = try CLIRunner.run(["diff", a, b], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("0 of 256 pixels differ"), "\(run.stdout)")
    }

    @Test func overlayAndIconReadFromPipes() throws {
        let folder = try TemporaryFolder()
        let geojson = ##"{"type":"Feature","properties":{"stroke":"#ff0000","stroke-width":6},"##
            + ##""geometry":{"type":"LineString","coordinates":[[-10,0],[10,0]]}}"##
        let overlay = try Self.pipe(Data(geojson.utf8), named: "line.geojson", in: folder)
        let icon = try Self.pipe(try TileFixtures.solidPNG(RGBA(r: 0, g: 0, b: 255), size: 12), named: "pin.png", in: folder)
        try folder.write("layers: [{id: white, source: {type: solid, color: white}}]\n", to: "white.yaml")
        let run = try CLIRunner.run(["--style", "white.yaml", "--overlay", overlay, "--marker", "20,0;icon=\(icon)", "--no-attribution",
                                     "--size", "200x200", "map.png"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let image = try GoldenComparison.load(folder.url.appendingPathComponent("map.png"))
        #expect(RenderHelpersCLI.count(image, PixelMeasure.red) > 100, "the line is drawn")
        #expect(RenderHelpersCLI.count(image, PixelMeasure.blue) > 50, "the icon is drawn")
    }

    /// A style comes from others: its icons must be regular files, never a pipe to wait on.
    @Test func aStyleIconThatIsAPipeIsRefused() throws {
        let folder = try TemporaryFolder()
        try #require(mkfifo(folder.url.appendingPathComponent("pin.png").path, 0o600) == 0)
        try folder.write("layers: [{id: white, source: {type: solid, color: white}}]\n"
                         + "overlays: [{marker: '0,0', icon: pin.png}]\n", to: "style.yaml")
        let run = try CLIRunner.run(["validate", "style.yaml"], in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderr.contains("overlays[0].marker: icon: 'pin.png' is a device, socket or pipe, not a file"), "\(run.stderr)")
    }

    @Test func aFolderOrADeviceIsNotARegularFile() throws {
        let folder = try TemporaryFolder()
        let png = try folder.write(try TileFixtures.solidPNG(.white, size: 16), to: "a.png")
        let device = try CLIRunner.run(["diff", png.path, "/dev/null"], in: folder.url)
        #expect(device.status == 2)
        #expect(device.stderr.contains("/dev/null: cannot read the file: it is a device, not a regular file"), "\(device.stderr)")
        let overlay = try CLIRunner.run(["--overlay", folder.url.path, "map.png"], in: folder.url)
        #expect(overlay.status == 2)
        #expect(overlay.stderr.contains("cannot read it: it is a folder, not a regular file"), "\(overlay.stderr)")
    }
}
