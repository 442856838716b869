import Foundation

/// A WMS served tile by tile on a Web Mercator grid: one GetMap per tile, or per metatile of
/// `metatile`×`metatile` tiles with a `buffer` around it, cut into tiles. Metatile requests for
/// tiles asked at once are made once; answers go through the disk cache like any remote tile.
public struct WMSTileSource: TileSource {
    public let info: TileSourceInfo
    let spec: WMSSourceSpec
    let loader: RemoteTileLoader
    private let metatiles: MetatileCache

    public init(spec: WMSSourceSpec, environment: RemoteEnvironment = .standard) {
        self.spec = spec
        let matrix = TileMatrix.webMercator(tileSize: spec.tileSize)
        let identity = "\(spec.getMap.identity)#tiled:\(spec.metatile)+\(spec.buffer)@\(matrix.identity)"
        info = TileSourceInfo(identity: identity, matrix: matrix, nativeZoom: spec.nativeZoom, bounds: spec.bounds,
                              attribution: spec.attribution)
        loader = RemoteTileLoader(environment: environment, settings: spec.remote.http, policy: spec.remote.cache,
                                  layer: spec.remote.layer, identity: identity, servers: [spec.getMap.url])
        metatiles = MetatileCache()
    }

    public func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        let matrix = info.matrix
        guard spec.metatile > 1 || spec.buffer > 0 else {
            let box = matrix.tileExtent(level: coord.z, column: coord.x, row: coord.y)
            return await loader.load(spec.getMap.url(for: box, width: matrix.tileWidth, height: matrix.tileHeight),
                                     key: coord.cacheKey(pixelRatio: 1))
        }
        let meta = Metatile(containing: coord, size: spec.metatile, buffer: spec.buffer, matrix: matrix)
        let url = spec.getMap.url(for: meta.box, width: meta.pixelWidth, height: meta.pixelHeight)
        let picture = await metatiles.picture(meta.cacheKey, width: meta.pixelWidth, height: meta.pixelHeight) { await loader.load(url, key: meta.cacheKey) }
        switch picture {
        case .failure(let failure):
            return failure.fetch
        case .success(let image):
            let (x, y) = meta.offset(of: coord, matrix: matrix)
            do {
                let tile = try image.cropped(x: x, y: y, width: matrix.tileWidth, height: matrix.tileHeight)
                return TileFetch(.found(.raster(tile)), origin: url.text)
            } catch {
                return TileFetch(.missing(.readFailed("cutting the metatile: \(error)")), origin: url.text)
            }
        }
    }

    public func dropCachedCopy(_ coord: TileCoord, pixelRatio: Int) async -> Bool {
        guard spec.metatile > 1 || spec.buffer > 0 else { return loader.drop(coord.cacheKey(pixelRatio: 1)) }
        let meta = Metatile(containing: coord, size: spec.metatile, buffer: spec.buffer, matrix: info.matrix)
        await metatiles.forget(meta.cacheKey)
        return loader.drop(meta.cacheKey)
    }
}
