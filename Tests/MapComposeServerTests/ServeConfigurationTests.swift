import Foundation
import MapComposeServer
import Testing

@Suite struct ServeConfigurationTests {
    @Test func everyKeyIsRead() throws {
        let configuration = try ServeConfiguration.parse("""
            host: 0.0.0.0
            port: 9000
            cache_control: "public, max-age=5"
            cache_dir: cache
            tile_memory: 64
            watch_interval: 0
            styles:
              world: default
              osm: {file: osm.yaml, cache_control: "no-cache"}
            limits: {max_size: 1024, max_overlays: 3, max_url_length: 100, max_body_bytes: 10, deadline: 2m,
                     max_in_flight: 4, retry_after: 9, idle_timeout: 5s, backlog: 64, max_connections: 500}
            """, file: "/etc/mapcompose/serve.yaml")
        #expect(configuration.host == "0.0.0.0" && configuration.port == 9000)
        #expect(configuration.cacheControl == "public, max-age=5" && configuration.cacheDir == "/etc/mapcompose/cache")
        #expect(configuration.tileMemory == 64 && configuration.watchInterval == 0)
        #expect(configuration.styles == [ServeConfiguration.StyleEntry(name: "world", file: "default"),
                                         ServeConfiguration.StyleEntry(name: "osm", file: "/etc/mapcompose/osm.yaml", cacheControl: "no-cache")])
        var limits = ServeConfiguration.Limits()
        limits.maxSize = 1024; limits.maxOverlays = 3; limits.maxURLLength = 100; limits.maxBodyBytes = 10
        limits.deadline = 120; limits.maxInFlight = 4; limits.retryAfter = 9
        limits.idleTimeout = 5; limits.backlog = 64; limits.maxConnections = 500
        #expect(configuration.limits == limits)
    }

    @Test("problems name the file and key", arguments: [
        ("colour: red", "serve.yaml: colour: unknown key"),
        ("port: 70000", "serve.yaml: port: expected a whole number in 0…65535"),
        ("styles: {'../x': a.yaml}", "style name '../x' must be letters, digits"),
        ("styles: {a: {file: a.yaml, zoom: 3}}", "serve.yaml: styles.a.zoom: unknown key"),
        ("limits: {deadline: soon}", "serve.yaml: limits.deadline: expected a duration"),
        ("limits: {max_size: 0}", "serve.yaml: limits.max_size: expected a whole number in 1…16384"),
        ("cache_control: \"a\\nb\"", "serve.yaml: cache_control: expected printable ASCII"),
        ("[1, 2]", "serve.yaml: expected a mapping of keys"),
    ])
    func problems(text: String, message: String) {
        #expect(throws: ServeConfigurationError.self) { try ServeConfiguration.parse(text, file: "serve.yaml") }
        do {
            _ = try ServeConfiguration.parse(text, file: "serve.yaml")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test func styleArgumentsAddOrReplace() throws {
        var configuration = ServeConfiguration()
        try configuration.setStyle("a=one.yaml")
        try configuration.setStyle("b=default")
        try configuration.setStyle("a=two.yaml")
        #expect(configuration.styles.map(\.file) == ["two.yaml", "default"])
        #expect(throws: ServeConfigurationError.self) { try configuration.setStyle("noequals") }
        #expect(throws: ServeConfigurationError.self) { try configuration.setStyle("..=x.yaml") }
        #expect(throws: ServeConfigurationError.self) { try configuration.setStyle("a/b=x.yaml") }
    }
}
