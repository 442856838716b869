import Foundation

/// Tiles of a WMTS layer on its own tile matrix set, through the HTTP client and disk cache;
/// tiles outside the layer's `TileMatrixSetLimits` are absent without a request.
public struct WMTSTileSource: TileSource {
    public let info: TileSourceInfo
    let levelIdentifiers: [String]
    let limits: [String: WMTSLayer.SetLink.Limits]
    let address: WMTSTileAddress
    let request: WMTSTileAddress.Request
    let loader: RemoteTileLoader

    init(spec: WMTSSourceSpec, matrix: TileMatrix, levelIdentifiers: [String], limits: [String: WMTSLayer.SetLink.Limits],
         address: WMTSTileAddress, request: WMTSTileAddress.Request, environment: RemoteEnvironment) {
        self.levelIdentifiers = levelIdentifiers
        self.limits = limits
        self.address = address
        self.request = request
        let location = switch address {
        case .rest(let template): template
        case .kvp(let base): base
        }
        let identity = "wmts:\(location)|\(request.layer)|\(request.style)|\(request.tileMatrixSet)|\(request.format)@\(matrix.identity)"
        // Levels the layer has tiles in: all, or those its limits name.
        var native = spec.nativeZoom ?? matrix.levelRange
        if spec.nativeZoom == nil, !limits.isEmpty {
            let present = levelIdentifiers.indices.filter { limits[levelIdentifiers[$0]] != nil }
            if let low = present.min(), let high = present.max() { native = low...high }
        }
        info = TileSourceInfo(identity: identity, matrix: matrix, nativeZoom: native, bounds: spec.bounds,
                              attribution: spec.attribution)
        loader = RemoteTileLoader(environment: environment, settings: spec.remote.http, policy: spec.remote.cache,
                                  layer: spec.remote.layer, identity: identity, servers: [location])
    }

    public func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        let matrix = levelIdentifiers[coord.z]
        let url = address.url(request, matrix: matrix, column: coord.x, row: coord.y)
        if !limits.isEmpty {
            guard let limit = limits[matrix], limit.columns.contains(coord.x), limit.rows.contains(coord.y) else {
                return TileFetch(.missing(.absent), origin: url)
            }
        }
        return await loader.load(EnvironmentReference(url), key: coord.cacheKey(pixelRatio: 1))
    }

    public func dropCachedCopy(_ coord: TileCoord, pixelRatio: Int) async -> Bool {
        loader.drop(coord.cacheKey(pixelRatio: 1))
    }
}
