import Foundation
import MapComposeTestSupport
@testable import MapComposeCore

/// A tile server on 127.0.0.1 with a scripted answer per request, a temporary folder for styles
/// and the disk cache, and helpers to load styles and render through them.
final class RemoteTestFixture: @unchecked Sendable {
    static let red = RGBA(r: 220, g: 30, b: 30)
    static let blue = RGBA(r: 30, g: 60, b: 220)

    let server: TestHTTPServer
    let folder: TemporaryFolder
    var cacheRoot: URL { folder.url.appendingPathComponent("cache") }

    init(_ handler: @escaping TestHTTPServer.Handler) throws {
        server = try TestHTTPServer(handler: handler)
        folder = try TemporaryFolder()
    }

    /// The server as `HostHealth` names it.
    var hostKey: String { "127.0.0.1:\(server.port)" }

    /// A remote environment with its own client (reading `variables` as the process
    /// environment, each allowed as `--allow-env` allows it) and this fixture's cache folder.
    /// With `breaker: false` the host is never given up (for tests of each tile's retries).
    func environment(offline: Bool = false, cache: Bool = true, variables: [String: String] = [:],
                     breaker: Bool = false) -> RemoteEnvironment {
        let health = breaker ? HostHealth() : HostHealth(failureThreshold: .max)
        return RemoteEnvironment(client: TileHTTPClient(environment: variables, health: health),
                                 cache: cache ? DiskTileCache(root: cacheRoot) : nil, offline: offline,
                                 allowedVariables: Set(variables.keys))
    }

    /// A style whose layers draw `source` (YAML flow mapping; `{base}` is the server's URL);
    /// `fallback: false` draws only the tiles of the render's level.
    func style(_ source: String, layers: Int = 1, fallback: Bool = true, remote: RemoteEnvironment) throws -> MapStyle {
        let text = source.replacingOccurrences(of: "{base}", with: server.baseURL)
        let rules = fallback ? "" : ", fallback: {parents: 0, children: 0}"
        let lines = (0..<layers).map { "  - {id: remote\($0)\(rules), source: \(text)}" }
        return try StyleLoader.load(file: try folder.write("layers:\n" + lines.joined(separator: "\n") + "\n", to: "style.yaml"),
                                    remote: remote)
    }

    /// Renders 512×512 at zoom 1 around (0, 0): the four level-1 tiles, (0,0) top-left.
    func renderWorld(_ style: MapStyle, store: TileStore = TileStore()) async throws -> RenderResult {
        let viewport = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 1, width: 512, height: 512)
        return try await MapRenderer(style: style, options: RenderOptions(attribution: false), store: store).render(viewport)
    }

    /// The colour at the middle of level-1 tile (x, y) in a `renderWorld` image.
    static func colorOfTile(_ image: RasterImage, x: Int, y: Int) -> RGBA {
        image.rgba(x: x * 256 + 128, y: y * 256 + 128)
    }

    /// A PNG of `color`.
    static func png(_ color: RGBA) -> Data {
        (try? TileFixtures.solidPNG(color)) ?? Data()
    }
}
