import Foundation

/// What the remote sources of a process share: the HTTP client (connections, limits), the disk
/// cache (nil turns it off) and whether to stay offline (answer from the cache only).
public final class RemoteEnvironment: Sendable {
    public let client: TileHTTPClient
    public let cache: DiskTileCache?
    /// Render from the disk cache only: a tile not there is missing, nothing is requested.
    public let offline: Bool

    public init(client: TileHTTPClient = TileHTTPClient(),
                cache: DiskTileCache? = DiskTileCache(root: DiskTileCache.defaultRoot()), offline: Bool = false) {
        self.client = client
        self.cache = cache
        self.offline = offline
    }

    /// The process default: environment proxies, the default cache folder, online.
    public static let standard = RemoteEnvironment()
}
