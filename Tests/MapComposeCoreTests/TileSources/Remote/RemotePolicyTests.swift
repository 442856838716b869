import Foundation
import Testing
@testable import MapComposeCore

/// The rules behind remote requests: retries and their waits, freshness from HTTP headers,
/// durations and sizes, proxies, environment references.
@Suite struct RemotePolicyTests {
    @Test func retriesAreForConnectErrorsTimeoutsResets5xxAnd429Only() {
        let policy = RetryPolicy(retries: 2)
        func answer(_ status: Int, _ headers: [String: String] = [:]) -> Result<HTTPAnswer, HTTPFailure> {
            .success(HTTPAnswer(status: status, headers: headers, body: Data()))
        }
        for status in [500, 502, 503, 504, 429] { #expect(policy.wait(after: answer(status), attempt: 1) != nil, "\(status)") }
        for status in [200, 204, 304, 400, 401, 403, 404, 410] { #expect(policy.wait(after: answer(status), attempt: 1) == nil, "\(status)") }
        #expect(policy.wait(after: .failure(.timedOut(seconds: 1)), attempt: 1) != nil)
        #expect(policy.wait(after: .failure(.connection("reset")), attempt: 2) != nil)
        #expect(policy.wait(after: .failure(.connection("reset")), attempt: 3) == nil, "two retries, then the result stands")
        #expect(policy.wait(after: .failure(.badURL("x")), attempt: 1) == nil)
        #expect(policy.wait(after: answer(429, ["retry-after": "7"]), attempt: 1) == 7)
        #expect(RetryPolicy(retries: 1, maxDelay: 30).wait(after: answer(503, ["retry-after": "30"]), attempt: 1) == 30)
        #expect(RetryPolicy(retries: 1, maxDelay: 30).wait(after: answer(503, ["retry-after": "3600"]), attempt: 1) == nil,
                "a server asking for more than the longest wait is not waited for")
    }

    @Test func backoffGrowsExponentiallyWithFullJitter() {
        let policy = RetryPolicy(retries: 5, baseDelay: 0.5, maxDelay: 3)
        #expect(policy.delay(beforeRetry: 1, retryAfter: nil, random: { $0.upperBound }) == 0.5)
        #expect(policy.delay(beforeRetry: 2, retryAfter: nil, random: { $0.upperBound }) == 1)
        #expect(policy.delay(beforeRetry: 3, retryAfter: nil, random: { $0.upperBound }) == 2)
        #expect(policy.delay(beforeRetry: 4, retryAfter: nil, random: { $0.upperBound }) == 3, "capped")
        #expect(policy.delay(beforeRetry: 2, retryAfter: nil, random: { $0.lowerBound }) == 0)
        let waits = (0..<50).map { _ in policy.delay(beforeRetry: 3, retryAfter: nil) }
        #expect(waits.allSatisfy { (0...2).contains($0) } && Set(waits).count > 1)
    }

    @Test func retryAfterReadsSecondsAndHTTPDates() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(RetryPolicy.retryAfterSeconds("120", now: now) == 120)
        #expect(RetryPolicy.retryAfterSeconds("Sun, 06 Nov 1994 08:50:37 GMT", now: now) == 60)
        #expect(RetryPolicy.retryAfterSeconds("Sunday, 06-Nov-94 08:50:37 GMT", now: now) == 60)
        #expect(RetryPolicy.retryAfterSeconds("Sun, 06 Nov 1994 08:40:37 GMT", now: now) == 0)
        #expect(RetryPolicy.retryAfterSeconds("soon", now: now) == nil)
        #expect(RetryPolicy.retryAfterSeconds(nil, now: now) == nil)
    }

    @Test func freshnessComesFromTheStyleThenCacheControlThenExpires() throws {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let headers = ["cache-control": "public, max-age=600", "age": "100", "expires": "Thu, 01 Jan 2037 00:00:00 GMT"]
        #expect(CachePolicy(ttl: 7 * 86_400).expiry(headers: headers, now: now) == now.addingTimeInterval(7 * 86_400))
        #expect(CachePolicy().expiry(headers: headers, now: now) == now.addingTimeInterval(500))
        let serverDate = HTTPDate.format(Date(timeIntervalSince1970: 2_000_000))
        let expires = HTTPDate.format(Date(timeIntervalSince1970: 2_000_300))
        #expect(CachePolicy().expiry(headers: ["expires": expires, "date": serverDate], now: now) == now.addingTimeInterval(300),
                "Expires counts from the server's clock")
        #expect(CachePolicy().expiry(headers: ["expires": "0"], now: now) == now)
        #expect(CachePolicy().expiry(headers: ["cache-control": "no-cache"], now: now) == now)
        #expect(CachePolicy().expiry(headers: ["cache-control": "no-store"], now: now) == nil)
        #expect(CachePolicy(ttl: 60).expiry(headers: ["cache-control": "no-store"], now: now) == now.addingTimeInterval(60))
        #expect(CachePolicy().expiry(headers: [:], now: now) == now.addingTimeInterval(CachePolicy.defaultTTL))
    }

    @Test func durationsAndSizesReadAsWritten() {
        #expect(StyleQuantity.seconds("7d") == 604_800)
        #expect(StyleQuantity.seconds("12h") == 43_200)
        #expect(StyleQuantity.seconds("1.5m") == 90)
        #expect(StyleQuantity.seconds("250ms") == 0.25)
        #expect(StyleQuantity.seconds("45") == 45)
        #expect(StyleQuantity.seconds("-1s") == nil && StyleQuantity.seconds("soon") == nil && StyleQuantity.seconds("infs") == nil)
        #expect(StyleQuantity.bytes("512MB") == 512 << 20)
        #expect(StyleQuantity.bytes("2GiB") == 2 << 30)
        #expect(StyleQuantity.bytes("100k") == 102_400)
        #expect(StyleQuantity.bytes("4096") == 4096)
        #expect(StyleQuantity.bytes("99999999999TB") == nil && StyleQuantity.bytes("lots") == nil)
    }

    @Test func proxiesFollowTheSchemeAndNoProxy() throws {
        let proxies = ProxySettings(environment: ["HTTP_PROXY": "http://127.0.0.1:3128", "https_proxy": "127.0.0.2:8443",
                                                  "NO_PROXY": "localhost, .internal.example,tiles.example.org"])
        #expect(proxies.proxy(for: try #require(URL(string: "http://a.tile.example.com/1/2/3.png"))) == .init(host: "127.0.0.1", port: 3128))
        #expect(proxies.proxy(for: try #require(URL(string: "https://a.tile.example.com/1/2/3.png"))) == .init(host: "127.0.0.2", port: 8443))
        #expect(proxies.proxy(for: try #require(URL(string: "http://localhost:8080/x"))) == nil)
        #expect(proxies.proxy(for: try #require(URL(string: "http://wms.internal.example/x"))) == nil)
        #expect(proxies.proxy(for: try #require(URL(string: "https://tiles.example.org/x"))) == nil)
        #expect(proxies.proxy(for: try #require(URL(string: "https://example.org/x"))) != nil, "a suffix matches at a dot only")
        #expect(ProxySettings(environment: ["HTTP_PROXY": "http://127.0.0.1:3128", "NO_PROXY": "*"])
            .proxy(for: try #require(URL(string: "http://x.example/"))) == nil)
        #expect(ProxySettings(environment: [:]).proxy(for: try #require(URL(string: "http://x.example/"))) == nil)
    }

    @Test func environmentReferencesResolveOnlyWhenSent() {
        let url = EnvironmentReference("https://tiles.example/{z}/{x}/{y}.png?key=${TILE_TOKEN}&v=${V}")
        #expect(url.variableNames == ["TILE_TOKEN", "V"])
        #expect(url.unsetVariables(in: ["V": "2"]) == ["TILE_TOKEN"])
        #expect(url.resolved(in: ["TILE_TOKEN": "s3cr3t", "V": "2"]) == "https://tiles.example/{z}/{x}/{y}.png?key=s3cr3t&v=2")
        #expect(url.description.contains("${TILE_TOKEN}") && !url.description.contains("s3cr3t"))
    }

    @Test func urlTemplatesFillSubdomainsQuadkeysTMSRowsAndRetinaSuffixes() throws {
        let template = try TilePathTemplate("https://{s}.tiles.example/{z}/{x}/{-y}{r}.png?q={quadkey}&t=${T}",
                                            allowing: TilePathTemplate.urlPlaceholders)
        let coord = TileCoord(z: 3, x: 5, y: 2)
        #expect(template.expand(coord, subdomain: "b", retinaSuffix: "@2x") == "https://b.tiles.example/3/5/5@2x.png?q=\(coord.quadkey)&t=${T}")
        #expect(throws: TilePathTemplate.Problem.unknownPlaceholder("s")) { try TilePathTemplate("{s}/{z}/{x}/{y}.png") }
    }
}
