import Foundation

/// A WMS asked for the whole view at once (`mode: single`): for each render, a one-level grid
/// laid on the view's pixels, cut in equal parts no larger than `maxSize` on a side, each part
/// one GetMap. Labels are placed by the server for the whole view.
public struct WMSSingleSource: TileSource {
    public let info: TileSourceInfo
    let spec: WMSSourceSpec
    let environment: RemoteEnvironment
    let loader: RemoteTileLoader

    public init(spec: WMSSourceSpec, environment: RemoteEnvironment = .standard) {
        self.spec = spec
        self.environment = environment
        let identity = "\(spec.getMap.identity)#single"
        info = TileSourceInfo(identity: identity, nativeZoom: spec.nativeZoom, bounds: spec.bounds, attribution: spec.attribution)
        loader = RemoteTileLoader(environment: environment, settings: spec.remote.http, policy: spec.remote.cache,
                                  layer: spec.remote.layer, identity: identity, servers: [spec.getMap.url])
    }

    /// Without a view there is nothing to ask for; renders use `forViewport`.
    public func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        TileFetch(.missing(.absent), origin: spec.getMap.url)
    }

    public func forViewport(_ viewport: Viewport) -> any TileSource {
        guard let view = WMSViewSource(parent: self, viewport: viewport) else { return self }
        return view
    }
}

/// `WMSSingleSource` for one view: its grid's one level has the view's resolution and origin.
struct WMSViewSource: TileSource {
    let info: TileSourceInfo
    let parent: WMSSingleSource

    init?(parent: WMSSingleSource, viewport: Viewport) {
        let extent = viewport.extent
        let maxSize = max(64, parent.spec.maxSize)
        let columns = (viewport.deviceWidth + maxSize - 1) / maxSize, rows = (viewport.deviceHeight + maxSize - 1) / maxSize
        let tileWidth = (viewport.deviceWidth + columns - 1) / columns, tileHeight = (viewport.deviceHeight + rows - 1) / rows
        let resolution = extent.width / Double(viewport.deviceWidth)
        guard let matrix = try? TileMatrix(
            identity: "view:\(extent.minX.exactText),\(extent.maxY.exactText)@\(resolution.exactText)/\(tileWidth)x\(tileHeight)",
            originX: extent.minX, originY: extent.maxY, tileWidth: tileWidth, tileHeight: tileHeight,
            levels: [.init(resolution: resolution, matrixWidth: columns, matrixHeight: rows)]) else { return nil }
        self.parent = parent
        info = TileSourceInfo(identity: "\(parent.info.identity)@\(matrix.identity)", matrix: matrix, nativeZoom: 0...0,
                              bounds: parent.info.bounds, attribution: parent.info.attribution)
    }

    func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        let url = partURL(coord)
        return await parent.loader.load(url, key: Self.cacheKey(url))
    }

    func dropCachedCopy(_ coord: TileCoord, pixelRatio: Int) async -> Bool {
        parent.loader.drop(Self.cacheKey(partURL(coord)))
    }

    /// The GetMap of one part of the view.
    func partURL(_ coord: TileCoord) -> EnvironmentReference {
        let matrix = info.matrix
        let box = matrix.tileExtent(level: coord.z, column: coord.x, row: coord.y)
        return parent.spec.getMap.url(for: box, width: matrix.tileWidth, height: matrix.tileHeight)
    }

    /// Views are not on a grid: parts are cached under a fingerprint of their request.
    static func cacheKey(_ url: EnvironmentReference) -> String {
        "single/" + ContentDigest.hex(of: Data(url.text.utf8))
    }
}
