import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Remote XYZ tiles against a real HTTP server on 127.0.0.1 that counts requests and injects
/// faults: each test checks the picture (the tile, or the gap, where it should be) and the
/// requests the server saw.
@Suite struct RemoteXYZFaultTests {
    typealias F = RemoteTestFixture

    /// `/tiles/z/x/y.png` → (z, x, y).
    static func tile(_ request: TestHTTPServer.Request) -> (z: Int, x: Int, y: Int)? {
        let parts = request.path.split(separator: "/")
        guard parts.count == 4, parts[0] == "tiles", let z = Int(parts[1]), let x = Int(parts[2]),
              let y = Int(parts[3].replacingOccurrences(of: ".png", with: "")) else { return nil }
        return (z, x, y)
    }

    static let source = "{type: xyz, url: \"{base}/tiles/{z}/{x}/{y}.png\", retries: 2, timeout: 2s}"

    @Test func tilesAreDrawnAndASecondRenderIsServedByTheDiskCache() async throws {
        let fixture = try F { _ in .image(F.png(F.red), headers: [("Cache-Control", "max-age=3600")]) }
        let environment = fixture.environment()
        let style = try fixture.style(Self.source, remote: environment)
        let first = try await fixture.renderWorld(style)
        for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] { #expect(F.colorOfTile(first.image, x: x, y: y) == F.red) }
        #expect(fixture.server.requests.count == 4)
        #expect(Set(fixture.server.requests.map(\.path)) == ["/tiles/1/0/0.png", "/tiles/1/1/0.png", "/tiles/1/0/1.png", "/tiles/1/1/1.png"])
        #expect(fixture.server.requests.allSatisfy { $0.headers["user-agent"] == HTTPSettings.defaultUserAgent })
        // A new store (a new process): the disk cache answers, the server sees nothing.
        let second = try await fixture.renderWorld(try fixture.style(Self.source, remote: fixture.environment()))
        #expect(F.colorOfTile(second.image, x: 1, y: 1) == F.red)
        #expect(fixture.server.requests.count == 4)
    }

    @Test func theSameTileAskedByTwoLayersAndTwoRendersAtOnceIsFetchedOnce() async throws {
        let fixture = try F { _ in .delayed(0.2, .image(F.png(F.red))) }
        let environment = fixture.environment(cache: false)
        let style = try fixture.style(Self.source, layers: 2, remote: environment)
        let store = TileStore()
        async let a = fixture.renderWorld(style, store: store)
        async let b = fixture.renderWorld(style, store: store)
        let (one, two) = try await (a, b)
        #expect(F.colorOfTile(one.image, x: 0, y: 0) == F.red && F.colorOfTile(two.image, x: 1, y: 1) == F.red)
        #expect(fixture.server.requests.count == 4)
        #expect(Dictionary(grouping: fixture.server.requests, by: \.path).values.allSatisfy { $0.count == 1 })
    }

    @Test func a404IsADefiniteMissFilledFromTheParentAndRememberedOnDisk() async throws {
        let fixture = try F { request in
            guard let t = Self.tile(request) else { return .status(400) }
            if t.z == 0 { return .image(F.png(F.blue)) }
            return t.z == 1 && (t.x, t.y) != (0, 0) ? .image(F.png(F.red)) : .status(404)
        }
        let style = try fixture.style(Self.source, remote: fixture.environment())
        let result = try await fixture.renderWorld(style)
        #expect(F.colorOfTile(result.image, x: 0, y: 0) == F.blue, "the parent stands in for the 404 tile")
        #expect(F.colorOfTile(result.image, x: 1, y: 0) == F.red)
        #expect(fixture.server.count("/tiles/1/0/0.png") == 1, "a 404 is not retried")
        #expect(fixture.server.count("/tiles/2/0/0.png") == 1, "children were asked first (fallback rules), and 404 too")
        let notServed = result.report.diagnostics.filter { $0.kind == .tileNotServed }
        #expect(notServed.count == 1)
        #expect(notServed.first?.description == "layer 'remote0': tile 1/0/0 (\(fixture.server.baseURL)/tiles/1/0/0.png): HTTP 404")
        #expect(result.report.problems.isEmpty, "a 404 is a miss, not a broken tile")
        fixture.server.resetLog()
        let again = try await fixture.renderWorld(try fixture.style(Self.source, remote: fixture.environment()))
        #expect(F.colorOfTile(again.image, x: 0, y: 0) == F.blue)
        #expect(fixture.server.requests.isEmpty, "the 404 and the tiles come from the disk cache")
    }

    @Test func a500ThenA200IsRetriedAndDrawn() async throws {
        let failed = LockedSet()
        let fixture = try F { request in
            failed.insert(request.path) ? .status(500) : .image(F.png(F.red))
        }
        let result = try await fixture.renderWorld(try fixture.style(Self.source, remote: fixture.environment()))
        #expect(F.colorOfTile(result.image, x: 0, y: 1) == F.red)
        #expect(fixture.server.requests.count == 8, "each tile: one 500, one 200")
        #expect(result.report.problems.isEmpty)
    }

    @Test func serverErrorsStopAtTheRetryLimitAndAreNotRemembered() async throws {
        let fixture = try F { _ in .status(503) }
        let environment = fixture.environment()
        let style = try fixture.style("{type: xyz, url: \"{base}/tiles/{z}/{x}/{y}.png\", retries: 1, minzoom: 1}",
                                      remote: environment)
        let result = try await fixture.renderWorld(style)
        #expect(F.colorOfTile(result.image, x: 0, y: 0).a == 0)
        #expect(fixture.server.count("/tiles/1/0/0.png") == 2, "the first attempt and one retry")
        #expect(result.report.problems.count == 1, "one warning for the four tiles with the same failure")
        #expect(result.report.problems.first?.count == 4)
        #expect(result.report.problems.first?.detail.contains("HTTP 503 after 2 attempts") == true)
        fixture.server.resetLog()
        _ = try await fixture.renderWorld(try fixture.style("{type: xyz, url: \"{base}/tiles/{z}/{x}/{y}.png\", retries: 1, minzoom: 1}",
                                                             fallback: false, remote: fixture.environment()))
        #expect(fixture.server.requests.count == 8, "transient failures are asked again by the next run")
    }

    @Test func a429WaitsForRetryAfter() async throws {
        let limited = LockedSet()
        let fixture = try F { request in
            limited.insert(request.path) ? .status(429, headers: [("Retry-After", "1")]) : .image(F.png(F.red))
        }
        let style = try fixture.style("{type: xyz, url: \"{base}/tiles/{z}/{x}/{y}.png\", retries: 1, minzoom: 1}",
                                      fallback: false, remote: fixture.environment(cache: false))
        let result = try await fixture.renderWorld(style)
        #expect(F.colorOfTile(result.image, x: 1, y: 1) == F.red)
        let times = fixture.server.requestTimes(path: "/tiles/1/1/1.png")
        #expect(times.count == 2)
        if times.count == 2 { #expect(times[1] - times[0] >= 0.95, "the retry waited for Retry-After: 1") }
    }

    @Test func aResponseSlowerThanTheTimeoutIsATransientMissAndTheRenderFinishes() async throws {
        let fixture = try F { _ in .delayed(60, .image(F.png(F.red))) }
        let style = try fixture.style("{type: xyz, url: \"{base}/tiles/{z}/{x}/{y}.png\", retries: 1, timeout: 300ms, minzoom: 1}",
                                      fallback: false, remote: fixture.environment())
        let result = try await fixture.renderWorld(style)
        #expect(F.colorOfTile(result.image, x: 0, y: 0).a == 0)
        #expect(fixture.server.count("/tiles/1/0/0.png") == 2)
        #expect(result.report.problems.first?.detail.contains("no answer within 0.3 s") == true,
                "the render gave up on its timeouts instead of waiting for the server's 60 s")
    }

    @Test func aTruncatedBodyAndAResetAreRetriedThenTransient() async throws {
        let png = F.png(F.red)
        let fixture = try F { request in
            guard let t = Self.tile(request) else { return .status(400) }
            if t.x == 0 { return .truncated(body: png.prefix(40), declaredLength: png.count) }
            if t.y == 0 { return .reset }
            return .image(png)
        }
        let style = try fixture.style("{type: xyz, url: \"{base}/tiles/{z}/{x}/{y}.png\", retries: 2, minzoom: 1}",
                                      fallback: false, remote: fixture.environment())
        let result = try await fixture.renderWorld(style)
        #expect(F.colorOfTile(result.image, x: 0, y: 0).a == 0 && F.colorOfTile(result.image, x: 0, y: 1).a == 0)
        #expect(F.colorOfTile(result.image, x: 1, y: 0).a == 0)
        #expect(F.colorOfTile(result.image, x: 1, y: 1) == F.red)
        #expect(fixture.server.count("/tiles/1/0/0.png") == 3, "the first attempt and two retries")
        // A request whose kept-alive connection is closed before any answer is sent once more
        // on a new connection (libcurl, as browsers do): each of the 3 attempts reaches the
        // server once or twice.
        #expect((3...6).contains(fixture.server.count("/tiles/1/1/0.png")), "\(fixture.server.count("/tiles/1/1/0.png"))")
        #expect(fixture.server.count("/tiles/1/1/1.png") == 1)
        #expect(result.report.problems.reduce(0) { $0 + ($1.count ?? 1) } == 3)
        #expect(result.report.problems.allSatisfy { $0.detail.contains("connection failed") })
    }

    @Test func answersWithoutATileAreDefiniteMissesWithTheirReason() async throws {
        let exception = "<ServiceExceptionReport><ServiceException>Layer not queryable</ServiceException></ServiceExceptionReport>"
        let fixture = try F { request in
            switch Self.tile(request).map({ ($0.x, $0.y) }) {
            case (0, 0)?: return .respond(status: 200, headers: [("Content-Type", "text/html")], body: Data("<html>login</html>".utf8))
            case (1, 0)?: return .status(204)
            case (0, 1)?: return .respond(status: 200, headers: [("Content-Type", "image/png")], body: Data())
            default: return .respond(status: 200, headers: [("Content-Type", "application/vnd.ogc.se_xml")], body: Data(exception.utf8))
            }
        }
        let style = try fixture.style("{type: xyz, url: \"{base}/tiles/{z}/{x}/{y}.png\", minzoom: 1}", fallback: false,
                                      remote: fixture.environment())
        let result = try await fixture.renderWorld(style)
        for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] { #expect(F.colorOfTile(result.image, x: x, y: y).a == 0) }
        #expect(fixture.server.requests.count == 4, "none is retried")
        let notServed = result.report.diagnostics.filter { $0.kind == .tileNotServed }
        let details = Dictionary(uniqueKeysWithValues: notServed.map { ($0.tile ?? "", $0.detail) })
        #expect(details["1/0/0"] == "HTTP 200 with content type text/html, not an image")
        #expect(details["1/1/0"] == "HTTP 204")
        #expect(notServed.first { $0.tile == "1/1/0" }?.origin == "\(fixture.server.baseURL)/tiles/1/1/0.png")
        #expect(details["1/0/1"]?.hasPrefix("HTTP 200 with an empty body") == true)
        #expect(details["1/1/1"]?.hasPrefix("HTTP 200 with a service exception: Layer not queryable") == true)
        #expect(result.report.problems.isEmpty)
    }

    @Test func anETagRevalidationIsAnswered304WithoutABody() async throws {
        let fixture = try F { _ in .conditional(etag: "\"v1\"", body: F.png(F.red), contentType: "image/png",
                                                headers: [("Cache-Control", "no-cache")]) }
        let source = "{type: xyz, url: \"{base}/tiles/{z}/{x}/{y}.png\", minzoom: 1}"
        _ = try await fixture.renderWorld(try fixture.style(source, remote: fixture.environment()))
        #expect(fixture.server.requests.allSatisfy { $0.headers["if-none-match"] == nil })
        fixture.server.resetLog()
        let again = try await fixture.renderWorld(try fixture.style(source, remote: fixture.environment()))
        #expect(F.colorOfTile(again.image, x: 1, y: 0) == F.red)
        #expect(fixture.server.requests.count == 4)
        #expect(fixture.server.requests.allSatisfy { $0.headers["if-none-match"] == "\"v1\"" }, "each stale entry was revalidated")
        #expect(fixture.server.answered304 == 4)
    }

    @Test func offlineRendersFromTheCacheOnlyAndSaysWhatIsMissing() async throws {
        let fixture = try F { _ in .image(F.png(F.red), headers: [("Cache-Control", "max-age=0")]) }
        let source = "{type: xyz, url: \"{base}/tiles/{z}/{x}/{y}.png\", minzoom: 1, maxzoom: 1}"
        // Online, the western half only: tiles (0,0) and (0,1), stale at once (max-age=0).
        let west = try Viewport(center: LonLat(lon: -90, lat: 0), zoom: 1, width: 256, height: 512)
        _ = try await MapRenderer(style: try fixture.style(source, fallback: false, remote: fixture.environment()),
                                  options: RenderOptions(attribution: false)).render(west)
        #expect(fixture.server.requests.count == 2)
        let offline = try await fixture.renderWorld(try fixture.style(source, fallback: false, remote: fixture.environment(offline: true)))
        #expect(fixture.server.requests.count == 2, "offline sends nothing, even for expired entries")
        #expect(F.colorOfTile(offline.image, x: 0, y: 0) == F.red && F.colorOfTile(offline.image, x: 0, y: 1) == F.red)
        #expect(F.colorOfTile(offline.image, x: 1, y: 0).a == 0)
        let notCached = offline.report.diagnostics.filter { $0.kind == .tileNotServed }
        #expect(notCached.count == 1, "one warning for the tiles with the same answer")
        #expect(notCached.first?.count == 2 && notCached.first?.total == 4 && notCached.first?.detail == "not in the disk cache (offline)")
        #expect(notCached.first?.description.hasPrefix("layer 'remote0': 2 of 4 tiles of level 1: not in the disk cache (offline) (first: tile 1/1/0, ") == true)
    }

    @Test func aDeadServerEndsTheRenderWithTransientMisses() async throws {
        let fixture = try F { _ in .status(200) }
        let style = try fixture.style("{type: xyz, url: \"{base}/tiles/{z}/{x}/{y}.png\", retries: 1, minzoom: 1}",
                                      fallback: false, remote: fixture.environment())
        fixture.server.shutdown()
        let result = try await fixture.renderWorld(style)
        #expect(result.report.problems.count == 1)
        #expect(result.report.problems.first?.count == 4)
        #expect(result.report.problems.allSatisfy { $0.detail == "read failed: connection failed: Connection refused" }, "\(result.report.problems.map(\.detail))")
    }

    /// A tile refused for its size is not kept in the disk cache: offline, it is not there.
    @Test func aTileRefusedForItsSizeIsNotReusedFromTheDiskCache() async throws {
        let huge = TileFixtures.pngHeader(width: 5000, height: 5000)
        let fixture = try F { _ in .image(huge, headers: [("Cache-Control", "max-age=3600")]) }
        let source = "{type: xyz, url: \"{base}/tiles/{z}/{x}/{y}.png\", minzoom: 1}"
        let online = try await fixture.renderWorld(try fixture.style(source, fallback: false, remote: fixture.environment()))
        #expect(online.report.problems.contains { $0.detail.contains("tile is 5000x5000 pixels") }, "\(online.report.problems)")
        let offline = try await fixture.renderWorld(try fixture.style(source, fallback: false,
                                                                      remote: fixture.environment(offline: true)))
        #expect(offline.report.problems.isEmpty, "\(offline.report.problems)")
        let notCached = offline.report.diagnostics.filter { $0.kind == .tileNotServed }
        #expect(notCached.first?.detail == "not in the disk cache (offline)" && notCached.first?.count == 4, "\(notCached)")
    }

    @Test func aCachedEntryThatDoesNotDecodeIsDroppedAndFetchedAgain() async throws {
        let fixture = try F { _ in .image(F.png(F.red), headers: [("Cache-Control", "max-age=3600")]) }
        let source = "{type: xyz, url: \"{base}/tiles/{z}/{x}/{y}.png\", minzoom: 1}"
        _ = try await fixture.renderWorld(try fixture.style(source, remote: fixture.environment()))
        let entries = try #require(FileManager.default.enumerator(atPath: fixture.cacheRoot.path)?
            .compactMap { $0 as? String }.filter { $0.hasSuffix("/1/0/0.tile") })
        #expect(entries.count == 1)
        let file = fixture.cacheRoot.appendingPathComponent(entries[0])
        let entry = try #require(CacheEntry(decoding: try Data(contentsOf: file)))
        try CacheEntry(metadata: entry.metadata, body: entry.body.prefix(60)).encoded().write(to: file)
        fixture.server.resetLog()
        let again = try await fixture.renderWorld(try fixture.style(source, remote: fixture.environment()))
        #expect(F.colorOfTile(again.image, x: 0, y: 0) == F.red)
        #expect(fixture.server.requests.map(\.path) == ["/tiles/1/0/0.png"])
        #expect(again.report.problems.isEmpty)
    }
}

/// A set shared by a server's handler calls: `insert` is true the first time a value is seen.
final class LockedSet: @unchecked Sendable {
    private let lock = NSLock()
    private var values: Set<String> = []
    func insert(_ value: String) -> Bool { lock.withLock { values.insert(value).inserted } }
}
