import Foundation

/// What the remote sources of a process share: the HTTP client (connections, limits), the disk
/// cache (nil turns it off) and whether to stay offline (answer from the cache only).
public final class RemoteEnvironment: Sendable {
    public let client: TileHTTPClient
    public let cache: DiskTileCache?
    /// Render from the disk cache only: a tile not there is missing, nothing is requested.
    public let offline: Bool
    /// When a document a source needs while loading (a TileJSON, WMTS capabilities) cannot be
    /// had because no server answers, load the style anyway: the layer draws nothing and the
    /// style's `notes` say why. For checking styles where their servers do not run.
    public let documentsMayBeUnreachable: Bool

    public init(client: TileHTTPClient = TileHTTPClient(),
                cache: DiskTileCache? = DiskTileCache(root: DiskTileCache.defaultRoot()), offline: Bool = false,
                documentsMayBeUnreachable: Bool = false) {
        self.client = client
        self.cache = cache
        self.offline = offline
        self.documentsMayBeUnreachable = documentsMayBeUnreachable
    }

    /// The process default: environment proxies, the default cache folder, online.
    public static let standard = RemoteEnvironment()
}
