import Foundation

/// Fetches and decodes the tiles of one layer with bounded concurrency, each tile once.
struct TileFetcher {
    let source: any TileSource
    /// Most requests in flight at once.
    var concurrency = 8
    /// Pixel ratio asked of sources that draw their own tiles.
    var pixelRatio = 1

    /// Resolves every distinct wrapped coordinate in `coords`.
    func resolve(_ coords: [TileCoord]) async -> [TileCoord: ResolvedTile] {
        var unique: [TileCoord] = []
        var seen: Set<TileCoord> = []
        for coord in coords.map(\.wrapped) where seen.insert(coord).inserted {
            unique.append(coord)
        }
        var results: [TileCoord: ResolvedTile] = [:]
        await withTaskGroup(of: ResolvedTile.self) { group in
            var next = 0
            func startNext() {
                guard next < unique.count else { return }
                let coord = unique[next]
                next += 1
                group.addTask { [source, pixelRatio] in await Self.resolveOne(coord, from: source, pixelRatio: pixelRatio) }
            }
            for _ in 0..<min(concurrency, unique.count) { startNext() }
            while let tile = await group.next() {
                results[tile.coord] = tile
                startNext()
            }
        }
        return results
    }

    private static func resolveOne(_ coord: TileCoord, from source: any TileSource,
                                   pixelRatio: Int) async -> ResolvedTile {
        let fetch = await source.fetch(coord, pixelRatio: pixelRatio)
        switch fetch.outcome {
        case .missing(let reason):
            return ResolvedTile(coord: coord, content: .missing(reason), origin: fetch.origin, decoded: false)
        case .found(.raster(let image)):
            return ResolvedTile(coord: coord, content: .image(image), origin: fetch.origin, decoded: false)
        case .found(.encoded(let data)):
            do {
                let image = try TileDecoder.decode(data)
                return ResolvedTile(coord: coord, content: .image(image), origin: fetch.origin, decoded: true)
            } catch {
                return ResolvedTile(coord: coord, content: .missing(.undecodable(error)), origin: fetch.origin, decoded: true)
            }
        }
    }
}
