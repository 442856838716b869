import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

@Suite(.serialized) struct ServeLifecycleTests {
    @Test func sigtermFinishesTheRequestInFlightAndExitsZero() throws {
        let upstream = try TestHTTPServer { _ in .delayed(2, .image((try? TileFixtures.solidPNG(RGBA(r: 200, g: 0, b: 0))) ?? Data())) }
        let fixture = try ServeFixture()
        try fixture.folder.write("""
            layers:
              - id: slow
                source: {type: xyz, url: "\(upstream.baseURL)/{z}/{x}/{y}.png"}
            """, to: "slow.yaml")
        let server = try ServeProcess(["--style", "slow=slow.yaml", "--no-cache"], in: fixture.url)
        let inFlight = InBackground { try HTTPProbe.request(port: server.port, target: "/styles/slow/tiles/0/0/0.png") }
        var asked = false
        for _ in 0..<400 where !asked { usleep(25_000); asked = upstream.requests.count > 0 }
        #expect(asked, "the render has asked its tile")
        server.signal(SIGTERM)
        let answer = try inFlight.result()
        #expect(answer.status == 200, "\(answer.text)")
        #expect(try Pixels.decode(answer.body).rgba(x: 10, y: 10) == RGBA(r: 200, g: 0, b: 0), "the tile arrived")
        #expect(server.wait() == 0, "\(server.stderr)")
    }

    /// A style of one solid colour.
    static func solidStyle(_ color: String) -> String {
        "layers: [{id: fill, source: {type: solid, color: \"\(color)\"}}]\n"
    }

    /// The colour in the middle of the `plain` style's map, asked until it is `expected` (any
    /// colour for nil) or 20 s have passed; nil while the style is not served.
    func color(_ server: ServeProcess, becoming expected: RGBA? = nil) throws -> RGBA? {
        var color: RGBA?
        for attempt in 0..<400 {
            if attempt > 0 { usleep(50_000) }
            let answer = try server.get("/styles/plain/static.png?center=0,0&zoom=1&size=16x16")
            color = answer.status == 200 ? try Pixels.decode(answer.body).rgba(x: 8, y: 8) : nil
            if let color, expected == nil || color == expected { break }
        }
        return color
    }

    @Test func sighupReloadsAndAnInvalidStyleKeepsTheOldOne() throws {
        // Style files are not watched (watch_interval 0): only SIGHUP reloads.
        let fixture = try ServeFixture(extra: "  plain: plain.yaml\nwatch_interval: 0")
        try fixture.folder.write(Self.solidStyle("#ff0000"), to: "plain.yaml")
        let server = try fixture.start()
        #expect(try color(server) == RGBA(r: 255, g: 0, b: 0))
        try fixture.folder.write(Self.solidStyle("#0000ff"), to: "plain.yaml")
        usleep(500_000)
        #expect(try color(server) == RGBA(r: 255, g: 0, b: 0), "not reloaded before SIGHUP")
        server.signal(SIGHUP)
        #expect(try color(server, becoming: RGBA(r: 0, g: 0, b: 255)) == RGBA(r: 0, g: 0, b: 255))
        try fixture.folder.write(Self.solidStyle("not a colour"), to: "plain.yaml")
        server.signal(SIGHUP)
        #expect(server.waitForLog { $0.contains("style does not load; serving its previous version") }, "\(server.stderr)")
        #expect(try color(server) == RGBA(r: 0, g: 0, b: 255), "the last good version is served")
        #expect(try server.get("/ready").status == 200)
    }

    @Test func aStyleFileChangedOnDiskIsReloaded() throws {
        let fixture = try ServeFixture(extra: "  plain: plain.yaml")
        try fixture.folder.write(Self.solidStyle("#ff0000"), to: "plain.yaml")
        let server = try fixture.start()
        #expect(try color(server) == RGBA(r: 255, g: 0, b: 0))
        try fixture.folder.write(Self.solidStyle("#00ff00") + "# changed\n", to: "plain.yaml")
        #expect(try color(server, becoming: RGBA(r: 0, g: 255, b: 0)) == RGBA(r: 0, g: 255, b: 0), "\(server.stderr)")
    }

    @Test func randomBadRequestsNeverGiveA5xx() throws {
        let fixture = try ServeFixture(limits: "  max_size: 64\n  max_overlays: 4\n")
        let server = try fixture.start()
        var random = SplitMix(state: 7)
        let names = ["center", "zoom", "bbox", "padding", "size", "scale", "marker", "path", "polygon", "circle", "text",
                     "quality", "fractional_zoom", "x", "", "%", "center%00", "zoom[]"]
        let values = ["", "abc", "1,2", "91,0", "0,181", "-1", "1e309", "nan", "inf", "-0", "25", "3.5", "64x64", "0x0",
                      "99999999999999999999x1", "1,1,1,1", "10,10,-10,-10", "1,1;2,2", "1,1;enc=_p~iF~ps|U", "%ff%fe",
                      "%2F..%2F", "1,1,red,ABCDEFG", "1,1;icon=/etc/passwd", "1,1;size=huge", "1,1,1e12", "%F0%9F%98%80", "%00",
                      "1,1;color=%23zz", "1,1;width=1000", "1,1;geodesic=true", "+", "%", "%%", "=", "%26"]
        var fiveHundreds: [String] = []
        for _ in 0..<7000 {
            let count = Int(random.next() % 5) + 1
            var parts: [String] = []
            for _ in 0..<count {
                let name = names[Int(random.next() % UInt64(names.count))]
                let value = values[Int(random.next() % UInt64(values.count))]
                parts.append(random.next() % 7 == 0 ? name : "\(name)=\(value)")
            }
            let format = ["png", "jpg", "webp", "gif"][Int(random.next() % 4)]
            let target = "/styles/ne/static.\(format)?" + parts.joined(separator: "&")
            let answer = try server.get(target)
            if answer.status >= 500 { fiveHundreds.append("\(answer.status) \(target) \(answer.text)") }
        }
        // WMS queries and Mapbox paths of random parts: 10,000 requests in all.
        let wmsNames = ["SERVICE", "REQUEST", "VERSION", "LAYERS", "CRS", "SRS", "BBOX", "WIDTH", "HEIGHT", "FORMAT", "x"]
        let wmsValues = ["WMS", "GetMap", "GetCapabilities", "1.1.1", "1.3.0", "ne", "nope", "EPSG:3857", "EPSG:4326",
                         "0,0,1,1", "1,1,0,0", "-2e7,-2e7,2e7,2e7", "1e308,0,1e309,1", "nan,0,1,1", "64", "0", "-5", "999999",
                         "image/png", "image/gif", "", "%00", "%ff"]
        let mapboxParts = ["pin-s(1,1)", "pin-l-a+f00(10,10)", "pin-s+zz(1,1)", "pin-s(1)", "path-3(_p~iF~ps%7CU_ulLnnqC)",
                           "path-3+f00-2(_p~iF)", "path-x+f00(abc)", "geojson(%7B%7D)", "geojson(%7B%22type%22:1%7D)",
                           "geojson(nope)", "url-x(1,1)", "auto", "[1,2,3]", "[1,1,2,2]", "1,1,3", "1,1,3,45", "1,1,3,0,0",
                           "200x200", "0x0", "64x64@2x", "99999x1", "((", "))", ",", ""]
        for _ in 0..<3000 {
            let target: String
            if random.next() % 2 == 0 {
                let count = Int(random.next() % 8) + 1
                let parts = (0..<count).map { _ in
                    "\(wmsNames[Int(random.next() % UInt64(wmsNames.count))])=\(wmsValues[Int(random.next() % UInt64(wmsValues.count))])"
                }
                target = "/wms?" + parts.joined(separator: "&")
            } else {
                let count = Int(random.next() % 4) + 1
                let parts = (0..<count).map { _ in mapboxParts[Int(random.next() % UInt64(mapboxParts.count))] }
                target = "/styles/v1/u/ne/static/" + parts.joined(separator: "/")
            }
            let answer = try server.get(target)
            if answer.status >= 500 { fiveHundreds.append("\(answer.status) \(target) \(answer.text)") }
        }
        #expect(fiveHundreds.isEmpty, "\(fiveHundreds.prefix(5))")
        #expect(try server.get("/health").status == 200)
        #expect(try server.get("/styles/ne/static.png?center=1,1&zoom=1&size=32x32").status == 200)
    }
}
