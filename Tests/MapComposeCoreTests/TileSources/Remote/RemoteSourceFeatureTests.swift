import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// What remote sources send and where: URL templates, retina tiles, headers with secrets from
/// the environment, per-host limits, TileJSON documents.
@Suite struct RemoteSourceFeatureTests {
    typealias F = RemoteTestFixture

    @Test func secretsReachTheServerButNoCacheNameReportOrMessage() async throws {
        let fixture = try F { request in
            request.headers["authorization"] == "Bearer s3cr3t" && request.parameters["KEY"] == "s3cr3t"
                ? .image(F.png(F.red)) : .status(403)
        }
        let environment = fixture.environment(variables: ["TILE_TOKEN": "s3cr3t"])
        let style = try fixture.style("""
            {type: xyz, url: "{base}/t/{z}/{x}/{y}.png?key=${TILE_TOKEN}", minzoom: 1, headers: {Authorization: "Bearer ${TILE_TOKEN}"}}
            """, remote: environment)
        let result = try await fixture.renderWorld(style)
        #expect(F.colorOfTile(result.image, x: 1, y: 1) == F.red, "the server got the secret")
        #expect(fixture.server.requests.count == 4)
        let report = String(decoding: StaticMapWriter.encode(result.report), as: UTF8.self)
        #expect(!report.contains("s3cr3t") && !style.layers[0].source.info.identity.contains("s3cr3t"))
        let names = FileManager.default.enumerator(atPath: fixture.cacheRoot.path)?.compactMap { $0 as? String } ?? []
        #expect(!names.isEmpty && names.allSatisfy { !$0.contains("s3cr3t") })
        for name in names where name.hasSuffix("cache.json") {
            #expect(!String(decoding: try Data(contentsOf: fixture.cacheRoot.appendingPathComponent(name)), as: UTF8.self).contains("s3cr3t"))
        }
        // A refused request's message shows the URL as written.
        let refused = try await fixture.renderWorld(try fixture.style("""
            {type: xyz, url: "{base}/t/{z}/{x}/{y}.png?key=${TILE_TOKEN}", minzoom: 1, cache: false}
            """, remote: fixture.environment(variables: ["TILE_TOKEN": "wrong-s3cr3t"])))
        let messages = refused.report.diagnostics.map(\.description).joined(separator: "\n")
        #expect(messages.contains("HTTP 403") && messages.contains("key=${TILE_TOKEN}") && !messages.contains("s3cr3t"))
    }

    @Test func anUnsetVariableIsAStyleErrorNamingIt() throws {
        let fixture = try F { _ in .status(500) }
        let remote = RemoteEnvironment(client: TileHTTPClient(environment: [:]), cache: nil, allowedVariables: ["MISSING_TOKEN"])
        #expect {
            _ = try fixture.style("{type: xyz, url: \"{base}/{z}/{x}/{y}.png\", headers: {X-Key: \"${MISSING_TOKEN}\"}}",
                                  remote: remote)
        } throws: { error in
            "\(error)".contains("MISSING_TOKEN, which is not set")
        }
    }

    @Test func aVariableNeitherTheStyleNorTheCommandLineAllowsIsAStyleError() throws {
        let fixture = try F { _ in .status(500) }
        let remote = RemoteEnvironment(client: TileHTTPClient(environment: ["HOME": "/root"]), cache: nil)
        #expect {
            _ = try fixture.style("{type: xyz, url: \"{base}/{z}/{x}/{y}.png?h=${HOME}\"}", remote: remote)
        } throws: { error in
            "\(error)".contains("refers to the environment variable HOME, which the style may not read: list it under env: in the style (env: [HOME]), or pass --allow-env HOME")
        }
        #expect(fixture.server.requests.isEmpty)
    }

    @Test func requestsToOneHostStayWithinTheLayersConcurrency() async throws {
        let fixture = try F { _ in .delayed(0.15, .image(F.png(F.red))) }
        let style = try fixture.style("{type: xyz, url: \"{base}/tiles/{z}/{x}/{y}.png\", concurrency: 2, cache: false}",
                                      remote: fixture.environment())
        let viewport = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 3, width: 1024, height: 1024)
        let result = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport)
        #expect(fixture.server.requests.count == 16)
        #expect(result.report.layers[0].tilesDrawn == 16)
        #expect(fixture.server.peakConcurrency <= 2, "at most two at once")
    }

    @Test func subdomainsQuadkeysAndTMSRowsBuildTheURLs() async throws {
        let fixture = try F { _ in .image(F.png(F.red)) }
        let style = try fixture.style("""
            {type: xyz, url: "{base}/{s}/{quadkey}/{z}-{x}-{-y}.png", subdomains: [a, b], scheme: xyz, minzoom: 1, cache: false}
            """, remote: fixture.environment())
        _ = try await fixture.renderWorld(style)
        let paths = Set(fixture.server.requests.map(\.path))
        #expect(paths == ["/a/0/1-0-1.png", "/b/1/1-1-1.png", "/b/2/1-0-0.png", "/a/3/1-1-0.png"])
    }

    @Test func retinaLayersAskForAt2xTilesAtScale2() async throws {
        let fixture = try F { request in
            .image((try? TileFixtures.solidPNG(F.red, size: request.path.contains("@2x") ? 512 : 256)) ?? Data())
        }
        let source = "{type: xyz, url: \"{base}/tiles/{z}/{x}/{y}{r}.png\", retina: true, minzoom: 1, cache: false}"
        let style = try fixture.style(source, remote: fixture.environment())
        let viewport = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 1, width: 512, height: 512, scale: 2)
        let result = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport)
        #expect(Set(fixture.server.requests.map(\.path)) == ["/tiles/1/0/0@2x.png", "/tiles/1/1/0@2x.png", "/tiles/1/0/1@2x.png", "/tiles/1/1/1@2x.png"])
        #expect(result.image.width == 1024 && result.image.rgba(x: 700, y: 300) == F.red)
        fixture.server.resetLog()
        let plain = try fixture.style(source.replacingOccurrences(of: "retina: true", with: "retina: false"), remote: fixture.environment())
        _ = try await MapRenderer(style: plain, options: RenderOptions(attribution: false)).render(viewport)
        #expect(fixture.server.requests.allSatisfy { !$0.path.contains("@2x") && $0.path.hasPrefix("/tiles/2/") },
                "without retina, scale 2 uses the next zoom's tiles")
    }

    @Test func tileJSONGivesTemplatesZoomsBoundsAndAttribution() async throws {
        let fixture = try F { request in
            if request.path == "/tiles.json" {
                return .respond(status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "max-age=600")], body: Data("""
                    {"tilejson": "3.0.0", "tiles": ["tiles/{z}/{x}/{y}.png"], "scheme": "tms", "minzoom": 1, "maxzoom": 1,
                     "bounds": [-180, -85, 180, 85], "attribution": "© Test Tiles"}
                    """.utf8))
            }
            return .image(F.png(F.red))
        }
        let style = try fixture.style("{type: tilejson, url: \"{base}/tiles.json\"}", remote: fixture.environment())
        let info = style.layers[0].source.info
        #expect(info.nativeZoom == 1...1 && info.attribution == "© Test Tiles")
        _ = try await fixture.renderWorld(style)
        #expect(Set(fixture.server.requests.map(\.path)) == ["/tiles.json", "/tiles/1/0/0.png", "/tiles/1/1/0.png", "/tiles/1/0/1.png", "/tiles/1/1/1.png"],
                "relative tile URLs resolve against the document; TMS rows")
        #expect(fixture.server.count("/tiles.json") == 1)
        // The document is cached: offline, the style still loads.
        fixture.server.shutdown()
        let offline = try fixture.style("{type: tilejson, url: \"{base}/tiles.json\"}", remote: fixture.environment(offline: true))
        #expect(offline.layers[0].source.info.nativeZoom == 1...1)
    }

    @Test func aLocalTileJSONFileIsReadRelativeToTheStyle() async throws {
        let fixture = try F { _ in .image(F.png(F.blue)) }
        try fixture.folder.write("""
            {"tiles": ["\(fixture.server.baseURL)/a/{z}/{x}/{y}.png", "\(fixture.server.baseURL)/b/{z}/{x}/{y}.png"],
             "minzoom": 0, "maxzoom": 1, "tileSize": 256}
            """, to: "data/tiles.json")
        let style = try fixture.style("{type: tilejson, url: data/tiles.json}", fallback: false, remote: fixture.environment(cache: false))
        let result = try await fixture.renderWorld(style)
        #expect(F.colorOfTile(result.image, x: 0, y: 0) == F.blue)
        #expect(Set(fixture.server.requests.map(\.path)) == ["/a/1/0/0.png", "/b/1/1/0.png", "/b/1/0/1.png", "/a/1/1/1.png"],
                "tiles are spread over the document's URLs")
    }

    @Test func aBadTileJSONIsAStyleErrorWithTheReason() throws {
        let fixture = try F { request in
            request.path == "/bad.json" ? .respond(status: 200, headers: [], body: Data("{\"tiles\": 3}".utf8)) : .status(404)
        }
        for (path, reason) in [("/bad.json", "'tiles' has the wrong type"), ("/gone.json", "HTTP 404")] {
            #expect {
                _ = try fixture.style("{type: tilejson, url: \"{base}\(path)\"}", remote: fixture.environment())
            } throws: { error in
                "\(error)".contains(reason) && "\(error)".contains("layers[0].source.url")
            }
        }
    }
}

/// HTTP_PROXY and NO_PROXY from the environment: the proxy tunnels every request to the test
/// server, so the request for a host that does not exist never leaves 127.0.0.1.
@Suite struct RemoteProxyTests {
    typealias F = RemoteTestFixture

    @Test func httpRequestsGoThroughTheProxyTheEnvironmentNames() async throws {
        let fixture = try F { _ in .image(F.png(F.red)) }
        let proxy = try TestConnectProxy(upstreamPort: fixture.server.port)
        let environment = fixture.environment(cache: false, variables: ["HTTP_PROXY": "http://127.0.0.1:\(proxy.port)"])
        let style = try fixture.style("{type: xyz, url: \"http://tiles.example.invalid/tiles/{z}/{x}/{y}.png\", minzoom: 1}",
                                      fallback: false, remote: environment)
        let result = try await fixture.renderWorld(style)
        #expect(F.colorOfTile(result.image, x: 1, y: 1) == F.red)
        #expect(fixture.server.requests.count == 4)
        #expect(proxy.targets.allSatisfy { $0 == "tiles.example.invalid:80" } && !proxy.targets.isEmpty, "\(proxy.targets)")
        #expect(fixture.server.requests.allSatisfy { $0.target == "tiles.example.invalid" }, "\(fixture.server.requests.map(\.target))")
    }

    @Test func noProxyHostsAreReachedDirectly() async throws {
        let fixture = try F { _ in .image(F.png(F.red)) }
        let environment = fixture.environment(cache: false, variables: ["HTTP_PROXY": "http://127.0.0.1:9", "NO_PROXY": "127.0.0.1"])
        let style = try fixture.style("{type: xyz, url: \"{base}/tiles/{z}/{x}/{y}.png\", minzoom: 1}", fallback: false, remote: environment)
        let result = try await fixture.renderWorld(style)
        #expect(F.colorOfTile(result.image, x: 0, y: 0) == F.red && fixture.server.requests.count == 4)
    }
}
