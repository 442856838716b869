import Foundation

/// XYZ or TMS tiles fetched from a server over HTTP(S), through the disk cache.
public struct RemoteXYZTileSource: TileSource {
    public let info: TileSourceInfo
    let spec: RemoteXYZSourceSpec
    let loader: RemoteTileLoader

    public init(spec: RemoteXYZSourceSpec, environment: RemoteEnvironment = .standard) {
        self.spec = spec
        let matrix = TileMatrix.webMercator(tileSize: spec.tileSize)
        let subdomains = spec.subdomains.isEmpty ? "" : "#s=\(spec.subdomains.joined(separator: ","))"
        let identity = "\(spec.vectorTiles ? "mvt" : "xyz")-url:\(spec.templates.map(\.text).joined(separator: "|"))\(subdomains)\(spec.tms ? "#tms" : "")@\(matrix.identity)"
        info = TileSourceInfo(identity: identity, matrix: matrix, nativeZoom: spec.nativeZoom, bounds: spec.bounds,
                              attribution: spec.attribution, maxPixelRatio: spec.retina ? 2 : 1)
        loader = RemoteTileLoader(environment: environment, settings: spec.remote.http, policy: spec.remote.cache,
                                  layer: spec.remote.layer, identity: identity, content: spec.vectorTiles ? .vectorTile : .image,
                                  servers: spec.templates.flatMap { template in
                                      (spec.subdomains.isEmpty ? [""] : spec.subdomains).map {
                                          template.text.replacingOccurrences(of: "{s}", with: $0)
                                      }
                                  })
    }

    /// The URL of a tile (environment references unresolved).
    public func url(_ coord: TileCoord, pixelRatio: Int) -> EnvironmentReference {
        let spread = coord.x + coord.y
        let subdomain = spec.subdomains.isEmpty ? "" : spec.subdomains[spread % spec.subdomains.count]
        let suffix = spec.retina && pixelRatio >= 2 ? "@2x" : ""
        let template = spec.templates[spread % spec.templates.count]
        return EnvironmentReference(template.expand(coord, tms: spec.tms, subdomain: subdomain, retinaSuffix: suffix))
    }

    public func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        await loader.load(url(coord, pixelRatio: pixelRatio), key: coord.cacheKey(pixelRatio: pixelRatio))
    }

    public func dropCachedCopy(_ coord: TileCoord, pixelRatio: Int) async -> Bool {
        loader.drop(coord.cacheKey(pixelRatio: pixelRatio))
    }
}
