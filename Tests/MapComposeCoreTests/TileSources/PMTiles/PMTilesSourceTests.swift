import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// A PMTiles layer, from a file or from a server answering range requests on 127.0.0.1, draws
/// the same pixels as the same tiles in a folder.
@Suite struct PMTilesSourceTests {
    static let viewport = try! Viewport(center: LonLat(lon: 10, lat: 30), zoom: 1.6, width: 600, height: 400)

    static func render(_ source: String, folder: URL, remote: RemoteEnvironment = RemoteEnvironment(cache: nil)) async throws -> RasterImage {
        let style = try StyleLoader.load(text: "layers:\n  - id: base\n    source:\n\(source)",
                                         origin: .file(folder.appendingPathComponent("style.yaml")),
                                         remote: remote)
        return try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(Self.viewport).image
    }

    static var folderSource: String {
        "      type: xyz\n      path: \(TestPaths.fixture("Reference/tiles").path)/{z}/{x}/{y}.png\n      maxzoom: 2\n"
    }

    @Test func aFileDrawsAsTheTileFolderDoes() async throws {
        let folder = try TemporaryFolder()
        let expected = try await Self.render(Self.folderSource, folder: folder.url)
        let actual = try await Self.render("      type: pmtiles\n      path: \(TestPaths.fixture("PMTiles/reference-z0-2.pmtiles").path)\n",
                                           folder: folder.url)
        #expect(try ImageDiff.compare(actual, expected, threshold: 0).differingPixels == 0)
    }

    /// Serves the reference archive's byte ranges on 127.0.0.1.
    static func rangeServer() throws -> TestHTTPServer {
        let archive = try Data(contentsOf: TestPaths.fixture("PMTiles/reference-z0-2.pmtiles"))
        return try TestHTTPServer { request in
            guard let range = request.headers["range"], range.hasPrefix("bytes=") else { return .status(400) }
            let bounds = range.dropFirst(6).split(separator: "-").compactMap { Int($0) }
            guard bounds.count == 2, bounds[0] <= bounds[1], bounds[0] < archive.count else { return .status(416) }
            let slice = archive.subdata(in: bounds[0]..<min(archive.count, bounds[1] + 1))
            return .respond(status: 206, headers: [("Content-Type", "application/octet-stream")], body: slice)
        }
    }

    @Test func rangesAreKeptInTheDiskCacheAndServeOffline() async throws {
        let server = try Self.rangeServer()
        defer { server.shutdown() }
        let folder = try TemporaryFolder()
        let cache = DiskTileCache(root: folder.url.appendingPathComponent("cache"))
        let source = "      type: pmtiles\n      url: http://127.0.0.1:\(server.port)/world.pmtiles\n"
        let first = try await Self.render(source, folder: folder.url, remote: RemoteEnvironment(cache: cache))
        let asked = server.count("/world.pmtiles")
        #expect(asked >= 2)
        let again = try await Self.render(source, folder: folder.url, remote: RemoteEnvironment(cache: cache))
        #expect(server.count("/world.pmtiles") == asked, "a second render reads every range from the cache")
        server.shutdown()
        let offline = try await Self.render(source, folder: folder.url, remote: RemoteEnvironment(cache: cache, offline: true))
        #expect(try ImageDiff.compare(again, first, threshold: 0).differingPixels == 0)
        #expect(try ImageDiff.compare(offline, first, threshold: 0).differingPixels == 0)
    }

    @Test func aServerAnsweringRangesDrawsAsTheFileDoes() async throws {
        let server = try Self.rangeServer()
        defer { server.shutdown() }
        let folder = try TemporaryFolder()
        let expected = try await Self.render(Self.folderSource, folder: folder.url)
        let actual = try await Self.render("      type: pmtiles\n      url: http://127.0.0.1:\(server.port)/world.pmtiles\n",
                                           folder: folder.url)
        #expect(try ImageDiff.compare(actual, expected, threshold: 0).differingPixels == 0)
        #expect(server.count("/world.pmtiles") >= 2, "the header and the tiles came by range requests")
    }

    @Test func styleProblemsNameTheKeyAndTheArchive() throws {
        let folder = try TemporaryFolder()
        let vector = try folder.write(PMTilesArchiveTests.archive(root: PMTilesArchiveTests.zlib(PMTilesArchiveTests.varints([0]))
                                                                  , tileType: 1), to: "vector.pmtiles")
        for (source, message) in [
            ("type: pmtiles\n      path: \(vector.path)", "it holds vector (MVT) tiles; a raster layer draws PNG, JPEG or WebP tiles"),
            ("type: pmtiles\n      path: a.pmtiles\n      url: http://127.0.0.1:9/a.pmtiles", "give either 'path'"),
            ("type: pmtiles\n      url: ftp://example/a.pmtiles", "expected an http(s) URL"),
            ("type: pmtiles\n      path: missing.pmtiles", "missing.pmtiles"),
        ] {
            #expect {
                _ = try StyleLoader.load(text: "layers:\n  - id: base\n    source:\n      \(source)\n",
                                         origin: .file(folder.url.appendingPathComponent("style.yaml")),
                                         remote: RemoteEnvironment(cache: nil))
            } throws: { error in
                "\(error)".contains(message)
            }
        }
    }
}
