import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// Decodes an image body, or an image file, and compares pixels exactly.
enum Pixels {
    static func decode(_ data: Data) throws -> RasterImage { try TileDecoder.decode(data) }

    static func file(_ url: URL) throws -> RasterImage { try TileDecoder.decode(try Data(contentsOf: url)) }

    /// The number of pixels that differ (every pixel when the sizes differ).
    static func differing(_ a: RasterImage, _ b: RasterImage) -> Int {
        guard a.width == b.width, a.height == b.height else { return max(a.width * a.height, b.width * b.height, 1) }
        var count = 0
        for y in 0..<a.height { for x in 0..<a.width where a.rgba(x: x, y: y) != b.rgba(x: x, y: y) { count += 1 } }
        return count
    }
}

/// The CLI's render of the same map, for comparison.
func cliRender(_ arguments: [String], in folder: URL, output: String) throws -> RasterImage {
    let process = Process()
    process.executableURL = ServeProcess.binary
    process.arguments = arguments + [output]
    process.currentDirectoryURL = folder
    let err = Pipe()
    process.standardError = err
    try process.run()
    let message = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw ServeFailure("mapcompose \(arguments) failed: \(String(decoding: message, as: UTF8.self))")
    }
    return try Pixels.file(folder.appendingPathComponent(output))
}

@Suite(.serialized) struct ServeEndpointTests {
    @Test func staticMapsHaveTheCLIsPixels() throws {
        let fixture = try ServeFixture()
        let server = try fixture.start()
        let cases: [(query: String, cli: [String], format: String)] = [
            ("center=48,10&zoom=4.5&size=300x200&scale=2&marker=48,10,red,A&marker=50,5&path=47,3;49,15;color=%23c00;width=4",
             ["--center", "48,10", "--zoom", "4.5", "--size", "300x200", "--scale", "2", "--marker", "48,10,red,A",
              "--marker", "50,5", "--path", "47,3;49,15;color=#c00;width=4"], "png"),
            ("bbox=-11,49,2,61&padding=10&size=256x256&polygon=50,0;52,0;52,-3&circle=51.5,-0.12,50000&text=55,-4,Hello%20there",
             ["--bbox", "-11,49,2,61", "--padding", "10", "--size", "256x256", "--polygon", "50,0;52,0;52,-3",
              "--circle", "51.5,-0.12,50000", "--text", "55,-4,Hello there"], "png"),
            ("marker=40,-3&marker=52,13,blue&size=320x240&padding=20",
             ["--marker", "40,-3", "--marker", "52,13,blue", "--size", "320x240", "--padding", "20"], "png"),
            ("center=40,-3&zoom=3&size=200x150", ["--center", "40,-3", "--zoom", "3", "--size", "200x150"], "webp"),
        ]
        for (index, item) in cases.enumerated() {
            let answer = try server.get("/styles/ne/static.\(item.format)?\(item.query)")
            #expect(answer.status == 200, "\(item.query): \(answer.text)")
            #expect(answer.headers["content-type"] == "image/\(item.format)")
            let served = try Pixels.decode(answer.body)
            let expected = try cliRender(["--style", "ne.yaml", "--no-cache"] + item.cli, in: fixture.url,
                                         output: "cli-\(index).\(item.format)")
            #expect(Pixels.differing(served, expected) == 0, "\(item.query)")
        }
    }

    @Test func tilesAreTheCLIsRenderOfTheTilesBBox() throws {
        let fixture = try ServeFixture()
        let server = try fixture.start()
        for (z, x, y, retina) in [(3, 4, 2, false), (5, 16, 10, true), (0, 0, 0, false)] {
            let answer = try server.get("/styles/ne/tiles/\(z)/\(x)/\(y)\(retina ? "@2x" : "").png")
            #expect(answer.status == 200, "\(answer.text)")
            let served = try Pixels.decode(answer.body)
            #expect(served.width == (retina ? 512 : 256) && served.height == served.width)
            let n = Double(1 << z)
            func lon(_ x: Int) -> Double { Double(x) / n * 360 - 180 }
            func lat(_ y: Int) -> Double { atan(sinh(Double.pi * (1 - 2 * Double(y) / n))) * 180 / .pi }
            let bbox = "\(lon(x)),\(lat(y + 1)),\(lon(x + 1)),\(lat(y))"
            let expected = try cliRender(["--style", "ne.yaml", "--no-cache", "--no-attribution", "--bbox", bbox,
                                          "--size", "256x256", "--scale", retina ? "2" : "1"],
                                         in: fixture.url, output: "tile-\(z)-\(x)-\(y).png")
            #expect(Pixels.differing(served, expected) == 0, "tile \(z)/\(x)/\(y)")
        }
        #expect(try server.get("/styles/ne/tiles/3/8/0.png").status == 404, "x beyond 2^z")
        #expect(try server.get("/styles/ne/tiles/25/0/0.png").status == 404)
        #expect(try server.get("/styles/ne/tiles/3/1/1.gif").status == 404)
    }

    @Test func tileJSONDescribesTheTiles() throws {
        let fixture = try ServeFixture()
        let server = try fixture.start()
        let answer = try server.get("/styles/ne/tiles.json")
        #expect(answer.status == 200)
        let json = answer.json
        #expect(json["tilejson"] as? String == "3.0.0")
        #expect(json["tiles"] as? [String] == ["http://127.0.0.1:\(server.port)/styles/ne/tiles/{z}/{x}/{y}.png"])
        #expect(json["attribution"] as? String == "Natural Earth")
        #expect(json["minzoom"] as? Int == 0 && json["maxzoom"] as? Int == 24)
        #expect((json["bounds"] as? [Double])?.count == 4)
    }

    @Test func imagesCarryETagsAnd304() throws {
        let fixture = try ServeFixture(extra: "")
        let server = try fixture.start()
        let target = "/styles/ne/tiles/2/1/1.png"
        let first = try server.get(target)
        #expect(first.status == 200)
        let etag = try #require(first.headers["etag"])
        #expect(first.headers["cache-control"] == "public, max-age=60")
        let again = try server.get(target, headers: ["If-None-Match": etag])
        #expect(again.status == 304 && again.body.isEmpty && again.headers["etag"] == etag)
        #expect(try server.get(target, headers: ["If-None-Match": "\"other\""]).status == 200)
        let staticMap = try server.get("/styles/ne/static.png?center=10,10&zoom=2&size=64x64")
        let staticTag = try #require(staticMap.headers["etag"])
        #expect(try server.get("/styles/ne/static.png?center=10,10&zoom=2&size=64x64", headers: ["If-None-Match": "W/\(staticTag)"]).status == 304)
    }

    @Test func healthReadyMetricsAndPages() throws {
        let fixture = try ServeFixture()
        let server = try fixture.start()
        #expect(try server.get("/health").status == 200)
        var ready = try server.get("/ready")
        for _ in 0..<600 where ready.status != 200 { usleep(100_000); ready = try server.get("/ready") }
        #expect(ready.status == 200 && ready.json["ready"] as? Bool == true)
        _ = try server.get("/styles/ne/tiles/1/0/0.png")
        _ = try server.get("/styles/ne/static.png?zoom=abc")
        let metrics = try server.get("/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.text.contains(#"mapcompose_http_requests_total{route="tile",status="200"} 1"#), "\(metrics.text)")
        #expect(metrics.text.contains(#"mapcompose_http_requests_total{route="static",status="400"} 1"#))
        #expect(metrics.text.contains("mapcompose_render_seconds_bucket"))
        #expect(metrics.text.contains("mapcompose_tile_store_misses_total"))
        let index = try server.get("/")
        #expect(index.status == 200 && index.text.contains("/styles/ne/"))
        let viewer = try server.get("/styles/ne/")
        #expect(viewer.status == 200 && viewer.text.contains("/tiles/"))
        #expect(!viewer.text.contains("<script src") && !viewer.text.contains("https://"), "self-contained")
        #expect(server.stderr.contains("route=tile") && server.stderr.contains("status=200"), "access log")
        _ = try server.get("/styles/ne/tiles/0/0/0.png?access_token=pk.secret123")
        #expect(server.waitForLog { $0.contains("access_token=…") }, "\(server.stderr)")
        #expect(!server.stderr.contains("secret123"), "tokens are not logged")
    }

    @Test func metricsCountUpstreamRequestsPerHost() throws {
        let upstream = try TestHTTPServer { request in
            request.path.hasSuffix("/1/1.png") ? .status(503) : .image((try? TileFixtures.solidPNG(RGBA(r: 9, g: 9, b: 9))) ?? Data())
        }
        let fixture = try ServeFixture()
        try fixture.folder.write("""
            layers:
              - id: remote
                source: {type: xyz, url: "\(upstream.baseURL)/{z}/{x}/{y}.png", retries: 0}
            """, to: "remote.yaml")
        let server = try ServeProcess(["--style", "remote=remote.yaml", "--no-cache"], in: fixture.url)
        #expect(try server.get("/styles/remote/tiles/1/0/0.png").status == 200)
        _ = try server.get("/styles/remote/tiles/1/1/1.png")
        let metrics = try server.get("/metrics").text
        let host = "127.0.0.1:\(upstream.port)"
        // Every request the upstream server saw (the tiles and those fallback asked for), and its one 503.
        let seen = upstream.requests.count, failed = upstream.requests.filter { $0.path.hasSuffix("/1/1.png") }.count
        #expect(seen >= 2 && failed == 1)
        #expect(metrics.contains("mapcompose_upstream_requests_total{host=\"\(host)\"} \(seen)"), "\(metrics)")
        #expect(metrics.contains("mapcompose_upstream_failures_total{host=\"\(host)\"} \(failed)"), "\(metrics)")
    }

    @Test func onlyConfiguredStylesAreServed() throws {
        let fixture = try ServeFixture()
        let server = try fixture.start()
        for target in ["/styles/../ne.yaml", "/styles/..%2Fne.yaml/static.png", "/styles/%2e%2e/ne/static.png",
                       "/styles/ne%2F..%2F..%2Fetc/static.png", "/styles//etc/passwd/static.png", "/styles/ne.yaml/static.png",
                       "/styles/%2Fetc%2Fpasswd/static.png", "/styles/ne/../ne/static.png?center=1,1&zoom=1",
                       "/styles/other/tiles/0/0/0.png", "/styles/ne/tiles/0/0/..%2F0.png", "/../../etc/passwd",
                       "/styles/ne/static.svg?center=1,1&zoom=1", "/styles/ne/ne.yaml"] {
            let answer = try server.get(target)
            #expect(answer.status == 404, "\(target): \(answer.status)")
            #expect(answer.headers["content-type"] == "application/json", "\(target)")
        }
    }
}

@Suite(.serialized) struct ServeLimitTests {
    /// A limit's refusal: status and the JSON error naming the parameter (none for "").
    func expectRefusal(_ answer: HTTPAnswer, _ status: Int, parameter: String, _ comment: String = "") {
        #expect(answer.status == status, "\(comment) \(answer.text)")
        #expect(answer.headers["content-type"] == "application/json", "\(comment)")
        #expect(answer.json["parameter"] as? String == (parameter.isEmpty ? nil : parameter), "\(comment) \(answer.text)")
        #expect((answer.json["error"] as? String)?.isEmpty == false, "\(comment)")
    }

    @Test func everyLimitIsAJSONError() throws {
        let fixture = try ServeFixture(limits: """
              max_size: 512
              max_overlays: 2
              max_url_length: 300
              max_body_bytes: 16
            """)
        let server = try fixture.start()
        expectRefusal(try server.get("/styles/ne/static.png?center=1,1&zoom=2&size=600x100"), 400, parameter: "size")
        expectRefusal(try server.get("/styles/ne/static.png?center=1,1&zoom=2&size=300x300&scale=2"), 400, parameter: "scale")
        expectRefusal(try server.get("/styles/ne/static.png?marker=1,1&path=1,1;2,2&marker=3,3"), 400, parameter: "marker")
        let long = "/styles/ne/static.png?center=1,1&zoom=2&text=1,1," + String(repeating: "a", count: 400)
        expectRefusal(try server.get(long), 414, parameter: "url")
        let posted = try HTTPProbe.request(port: server.port, method: "POST", target: "/styles/ne/static.png?center=1,1&zoom=1",
                                           body: Data(repeating: 65, count: 1000))
        expectRefusal(posted, 413, parameter: "body")
        expectRefusal(try server.get("/styles/ne/static.png?center=1,1&zoom=abc"), 400, parameter: "zoom")
        expectRefusal(try server.get("/styles/ne/static.png?center=95,1&zoom=2"), 400, parameter: "center")
        expectRefusal(try server.get("/styles/ne/static.png?center=1,1&zoom=2&colour=red"), 400, parameter: "colour")
        expectRefusal(try server.get("/styles/ne/static.png?marker=1,1;icon=/etc/passwd"), 400, parameter: "marker")
        expectRefusal(try server.get("/styles/ne/static.png"), 400, parameter: "center")
        #expect(try server.get("/health").status == 200)
    }

    @Test func rendersPastTheBoundAre503AndTheDeadlineDrawsByFallback() throws {
        let upstream = try TestHTTPServer { _ in .delayed(4, .image((try? TileFixtures.solidPNG(RGBA(r: 200, g: 0, b: 0))) ?? Data())) }
        let fixture = try ServeFixture(limits: "  max_in_flight: 1\n  retry_after: 7\n")
        try fixture.folder.write("""
            background: "#00ff00"
            layers:
              - id: base
                source: {type: mbtiles, path: \(TestPaths.fixture("Reference/naturalearth.mbtiles").path)}
              - id: slow
                source: {type: xyz, url: "\(upstream.baseURL)/{z}/{x}/{y}.png"}
            """, to: "slow.yaml")
        // The deadline is 1 s: the slow layer's tiles are left to fallback (here, nothing over the base).
        try fixture.folder.write("""
            styles:
              slow: slow.yaml
            limits:
              deadline: 1s
              max_in_flight: 1
              retry_after: 7
            """, to: "slow-serve.yaml")
        let server = try ServeProcess(["--config", "slow-serve.yaml", "--no-cache"], in: fixture.url)
        let slow = InBackground { try HTTPProbe.request(port: server.port, target: "/styles/slow/tiles/2/1/1.png") }
        var refused: HTTPAnswer?
        for _ in 0..<100 {
            usleep(50_000)
            let answer = try server.get("/styles/slow/tiles/2/2/2.png")
            if answer.status == 503 { refused = answer; break }
        }
        let busy = try #require(refused, "a second render while one runs is refused")
        expectRefusal(busy, 503, parameter: "", "in flight")
        #expect(busy.headers["retry-after"] == "7")
        let answer = try slow.result()
        #expect(answer.status == 200, "\(answer.text)")
        let image = try Pixels.decode(answer.body)
        #expect(image.rgba(x: 128, y: 128) != RGBA(r: 200, g: 0, b: 0), "the late tile is left to fallback")
    }
}

/// A request made on a thread of its own, whose answer is waited for later.
final class InBackground<Value: Sendable>: @unchecked Sendable {
    private var outcome: Result<Value, any Error>?
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () throws -> Value) {
        Thread.detachNewThread { [self] in
            outcome = Result { try body() }
            done.signal()
        }
    }

    func result() throws -> Value {
        done.wait()
        return try outcome!.get()
    }
}
