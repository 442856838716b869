import Foundation
import Logging
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Redirects and `Retry-After` against servers on 127.0.0.1: secret headers never follow a
/// redirect to another origin, and a server asking to wait longer than the render's deadline
/// is not waited for.
@Suite struct RedirectAndRetryAfterTests {
    typealias F = RemoteTestFixture

    @Test func secretHeadersStayWithTheirOriginAcrossRedirects() async throws {
        let png = F.png(F.red)
        let other = try TestHTTPServer { _ in .image(png) }
        let fixture = try F { request in
            if request.path.hasPrefix("/away/") {
                return .respond(status: 302, headers: [("Location", "\(other.baseURL)/tiles\(request.path.dropFirst(5))")], body: Data())
            }
            if request.path.hasPrefix("/here/") {
                return .respond(status: 302, headers: [("Location", "/tiles\(request.path.dropFirst(5))")], body: Data())
            }
            return .image(png)
        }
        let variables = ["TILE_KEY": "s3cr3t-value"]
        for (prefix, server) in [("away", other), ("here", fixture.server)] {
            let style = try fixture.style("""
                {type: xyz, url: "{base}/\(prefix)/{z}/{x}/{y}.png", headers: {X-Api-Key: "${TILE_KEY}", X-Plain: "visible"}, cache: false}
                """, fallback: false, remote: fixture.environment(variables: variables))
            let result = try await fixture.renderWorld(style)
            #expect(F.colorOfTile(result.image, x: 1, y: 1) == F.red, "\(prefix): the redirect was followed")
            let followed = server.requests.filter { $0.path.hasPrefix("/tiles/") }
            #expect(followed.count == 4, "\(prefix)")
            #expect(followed.allSatisfy { $0.headers["x-plain"] == "visible" }, "\(prefix): plain headers follow")
            if server === other {
                #expect(followed.allSatisfy { $0.headers["x-api-key"] == nil }, "another origin gets no secret")
            } else {
                #expect(followed.allSatisfy { $0.headers["x-api-key"] == "s3cr3t-value" }, "the same origin keeps it")
            }
        }
    }

    @Test func aDowngradeToHTTPIsAnotherOrigin() throws {
        let headers = [RedirectPolicy.Header(name: "Authorization", value: "Bearer x", isSecret: false),
                       RedirectPolicy.Header(name: "X-Key", value: "k", isSecret: true),
                       RedirectPolicy.Header(name: "User-Agent", value: "ua", isSecret: false)]
        let answer = HTTPAnswer(status: 301, headers: ["location": "http://tiles.example.org/1/0/0.png"], body: Data())
        let next = try #require(try RedirectPolicy.follow(answer, from: URL(string: "https://tiles.example.org/1/0/0.png")!,
                                                          headers: headers, visited: []))
        #expect(next.url.absoluteString == "http://tiles.example.org/1/0/0.png")
        #expect(next.headers.map(\.name) == ["User-Agent"])
    }

    /// `Retry-After: 99999999` on every tile: nothing waits for it past the render's deadline,
    /// and each tile is asked once.
    @Test func aRetryAfterBeyondTheDeadlineIsNotWaitedFor() async throws {
        let fixture = try F { _ in .status(429, headers: [("Retry-After", "99999999")]) }
        let environment = fixture.environment(breaker: true)
        let style = try fixture.style("{type: xyz, url: \"{base}/tiles/{z}/{x}/{y}.png\", retries: 2, cache: false}",
                                      remote: environment)
        var request = RenderRequest(style: style, area: .center(LonLat(lon: 0, lat: 0), zoom: 1), width: 256, height: 256,
                                    output: fixture.folder.url.appendingPathComponent("map.png").path, attribution: false)
        request.deadline = 600
        let report: RenderReport
        do {
            report = try await StaticMapWriter(store: TileStore(), logger: Logger(label: "test")).write(request)
            Issue.record("no tile could be had: the render fails")
        } catch {
            report = try #require(error.report)
        }
        #expect(!report.diagnostics.contains { $0.kind == .deadlinePassed }, "nothing waited for the server's 99999999 s")
        let tiles = Dictionary(grouping: fixture.server.requests, by: \.path)
        #expect(tiles.values.allSatisfy { $0.count == 1 }, "\(tiles.mapValues(\.count))")
        #expect(report.problems.contains { $0.detail.contains("HTTP 429") }, "\(report.problems)")
        #expect(environment.client.health.isRefusing(fixture.hostKey), "the host is left alone as it asked")
    }
}
