import Foundation
import MapComposeCore
import MapComposeTestSupport

/// A 1024×1024 render of one layer from a tile server on 127.0.0.1: cold (empty disk cache),
/// then warm (every tile from the disk cache, a new tile store per render), next to the same
/// layer read from its MBTiles file.
func remoteBench(mbtiles: URL, viewport: Viewport, level: Int, runs: Int, folder: URL) async throws {
    let source = try MBTilesSource(spec: MBTilesSourceSpec(file: mbtiles))
    var tiles: [String: Data] = [:]
    let grid = TileMatrix.webMercator()
    if let range = grid.covering(viewport.extent, level: level) {
        for coord in range.tiles {
            if case .found(.encoded(let data)) = await source.fetch(coord, pixelRatio: 1).outcome {
                tiles["/tiles/\(coord.z)/\(coord.x)/\(coord.y).png"] = data
            }
        }
    }
    let served = tiles
    let server = try TestHTTPServer { request in
        served[request.path].map { .image($0, headers: [("Cache-Control", "max-age=86400")]) } ?? .status(404)
    }
    defer { server.shutdown() }
    let cache = folder.appendingPathComponent("http-cache")
    func style(_ source: String, remote: RemoteEnvironment) throws -> MapStyle {
        try StyleLoader.load(text: "layers:\n  - {id: land, source: \(source)}\n", origin: .file(folder.appendingPathComponent("remote.yaml")),
                             remote: remote)
    }
    let remoteSource = "{type: xyz, url: \"\(server.baseURL)/tiles/{z}/{x}/{y}.png\", concurrency: 8}"
    func render(_ style: MapStyle) async throws -> (ms: Double, requested: Int) {
        let started = ContinuousClock.now
        let result = try await MapRenderer(style: style, store: TileStore()).render(viewport)
        return (started.duration(to: .now).milliseconds, result.report.layers.map(\.tilesRequested).reduce(0, +))
    }
    let cold = try await render(try style(remoteSource, remote: RemoteEnvironment(cache: DiskTileCache(root: cache))))
    let coldRequests = server.requests.count
    var warm: [Double] = [], local: [Double] = []
    let warmStyle = try style(remoteSource, remote: RemoteEnvironment(cache: DiskTileCache(root: cache)))
    let localStyle = try style("{type: mbtiles, path: \(mbtiles.path)}", remote: .standard)
    _ = try await render(localStyle)
    for _ in 0..<runs {
        warm.append(try await render(warmStyle).ms)
        local.append(try await render(localStyle).ms)
    }
    warm.sort()
    local.sort()
    let warmMedian = warm[warm.count / 2], localMedian = local[local.count / 2]
    func ms(_ v: Double) -> String { String(format: "%.1f", v) }
    print("")
    print("remote xyz: 1024x1024 px, one PNG layer from a tile server on 127.0.0.1 (\(cold.requested) tiles)")
    print("cold (empty disk cache): \(ms(cold.ms)) ms, \(coldRequests) requests, \(String(format: "%.0f", Double(cold.requested) / cold.ms * 1000)) tiles/s")
    print("warm (disk cache):       median \(ms(warmMedian)) ms over \(runs) renders, \(server.requests.count - coldRequests) requests")
    print("same layer from MBTiles: median \(ms(localMedian)) ms; warm / MBTiles = \(String(format: "%.2f", warmMedian / localMedian))")
}
