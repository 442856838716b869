import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Files named in styles are read only when they are files, with a reason that says what is
/// wrong instead of Foundation's "Permission denied" for a pipe or a device.
@Suite struct PathStatusTests {
    @Test func aPipeOrADeviceIsNotReadAndSaysWhatItIs() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.url.appendingPathComponent("data.geojson")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        for url in [fifo, URL(fileURLWithPath: "/dev/zero")] {
            #expect(throws: PathReadError.self) { try PathStatus.read(url) }
            do {
                _ = try PathStatus.read(url)
            } catch {
                #expect(error.reason == "is a device, socket or pipe, not a file", "\(url.path): \(error.reason)")
            }
        }
        // A file is read; a missing one gives the system's reason.
        #expect(try PathStatus.read(try folder.write("{}", to: "a.json")) == Data("{}".utf8))
        do {
            _ = try PathStatus.read(folder.url.appendingPathComponent("absent.json"))
            Issue.record("a missing file was read")
        } catch {
            #expect(error.reason == "No such file or directory")
        }
    }

    @Test func aMapLibreGeoJSONSourceNamingAPipeIsRefusedSoon() throws {
        let folder = try TemporaryFolder()
        try #require(mkfifo(folder.url.appendingPathComponent("pipe.geojson").path, 0o600) == 0)
        let style = try folder.write("""
            {"version": 8, "sources": {"g": {"type": "geojson", "data": "pipe.geojson"}},
             "layers": [{"id": "g", "type": "fill", "source": "g"}]}
            """, to: "style.json")
        #expect {
            _ = try StyleLoader.load(file: style)
        } throws: { error in
            "\(error)".contains("'pipe.geojson': is a device, socket or pipe, not a file")
        }
    }
}
