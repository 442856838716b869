import Foundation

/// What every remote source has besides its own keys: the layer it belongs to (naming its cache
/// folder), how to talk to the server, and how to cache the answers.
public struct RemoteOptions: Sendable, Equatable {
    /// The id of the layer, naming its cache folder.
    public var layer: String
    public var http: HTTPSettings
    public var cache: CachePolicy

    public init(layer: String, http: HTTPSettings = HTTPSettings(), cache: CachePolicy = CachePolicy()) {
        self.layer = layer
        self.http = http
        self.cache = cache
    }
}

/// XYZ or TMS tiles from a server (`type: xyz` with a `url`).
public struct RemoteXYZSourceSpec: Sendable {
    /// URL templates (`{z} {x} {y} {-y} {quadkey} {s} {r}` and `${NAME}` references); with
    /// several, as a TileJSON may list, tiles are spread over them.
    public var templates: [TilePathTemplate]
    /// Values of `{s}`, chosen per tile.
    public var subdomains: [String]
    public var tms: Bool
    public var nativeZoom: ClosedRange<Int>
    public var bounds: GeoBounds?
    public var tileSize: Int
    /// The server has `@2x` tiles (`{r}`); used for output at pixel ratio 2 and above.
    public var retina: Bool
    public var attribution: String?
    public var remote: RemoteOptions
    /// The tiles are Mapbox Vector Tiles (a MapLibre style's `vector` source), not images: any
    /// non-empty body the server sends with a 200 is taken.
    public var vectorTiles = false

    public init(templates: [TilePathTemplate], subdomains: [String] = [], tms: Bool = false,
                nativeZoom: ClosedRange<Int> = TileSourceInfo.defaultNativeLevels, bounds: GeoBounds? = nil,
                tileSize: Int = 256, retina: Bool = false, attribution: String? = nil, remote: RemoteOptions) {
        self.templates = templates
        self.subdomains = subdomains
        self.tms = tms
        self.nativeZoom = nativeZoom
        self.bounds = bounds
        self.tileSize = tileSize
        self.retina = retina
        self.attribution = attribution
        self.remote = remote
    }
}
