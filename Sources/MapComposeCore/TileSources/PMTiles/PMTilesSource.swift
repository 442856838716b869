import Foundation

/// Raster tiles from a PMTiles archive (a file, or a server answering range requests). Its
/// header gives the levels and bounds, its metadata the attribution.
public final class PMTilesSource: TileSource {
    public let info: TileSourceInfo
    let archive: PMTilesArchive

    /// Opens the archive (reading its header, root directory and metadata) and checks it holds
    /// raster tiles, or with `vectorTiles` Mapbox Vector Tiles.
    public init(spec: PMTilesSourceSpec, environment: RemoteEnvironment, vectorTiles: Bool = false) throws(PMTilesError) {
        let reader: any PMTilesByteReader
        let identity: String
        switch spec.location {
        case .file(let url):
            let path = url.standardizedFileURL.resolvingSymlinksInPath().path
            switch PMTilesFileReader.open(url.path) {
            case .success(let file): reader = file
            case .failure(let reason): throw PMTilesError(url.path, reason)
            }
            identity = "pmtiles:\(path)"
        case .remote(let url):
            identity = "pmtiles:\(url.text)"
            let options = spec.remote
            let space = options.cache.enabled ? environment.cache.map {
                $0.space(for: CacheDescription(id: CacheDescription.derivedID(layer: options.layer, identity: identity),
                                               layer: options.layer, source: identity, maxBytes: options.cache.maxBytes))
            } : nil
            reader = PMTilesHTTPReader(url: url, client: environment.client, settings: options.http, cache: space,
                                       policy: options.cache, offline: environment.offline)
        }
        switch PMTilesArchive.open(reader) {
        case .success(let opened): archive = opened
        case .failure(let error): throw error
        }
        let header = archive.header
        if vectorTiles {
            guard header.tileType == .mvt else {
                throw PMTilesError(archive: archive.name, reason: "it holds \(header.tileType.name) tiles; a vector source "
                                   + "reads vector (MVT) tiles")
            }
        } else if ![.png, .jpeg, .webp].contains(header.tileType) {
            throw PMTilesError(archive: archive.name, reason: "it holds \(header.tileType.name) tiles; a raster layer "
                               + "draws PNG, JPEG or WebP tiles")
        }
        let native = spec.nativeZoom ?? header.minZoom...header.maxZoom
        let bounds = GeoBounds(west: header.bounds.west, south: header.bounds.south,
                               east: header.bounds.east, north: header.bounds.north)
        let matrix = TileMatrix.webMercator(tileSize: spec.tileSize)
        info = TileSourceInfo(identity: "\(identity)@\(matrix.identity)", matrix: matrix, nativeZoom: native,
                              bounds: bounds.isValidBox && !bounds.crossesAntimeridian ? bounds : nil,
                              attribution: archive.metadataText("attribution"))
    }

    public func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        let origin = "\(archive.name)#\(coord.z)/\(coord.x)/\(coord.y)"
        switch await archive.tile(z: coord.z, x: coord.x, y: coord.y) {
        case .success(let data?): return TileFetch(.found(.encoded(data)), origin: origin)
        case .success(nil): return TileFetch(.missing(.absent), origin: origin)
        case .failure(let reason): return TileFetch(.missing(.readFailed(reason.text)), origin: origin)
        }
    }
}
