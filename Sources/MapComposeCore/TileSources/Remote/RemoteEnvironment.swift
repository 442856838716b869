import Foundation
import Synchronization

/// What the remote sources of a process share: the HTTP client (connections, limits), the disk
/// cache (nil turns it off) and whether to stay offline (answer from the cache only).
public final class RemoteEnvironment: Sendable {
    /// Made on first use: a style without remote sources never makes one (reading the proxy
    /// variables and setting up the client is a measurable part of a small render's start).
    public var client: TileHTTPClient {
        clientSlot.withLock { slot in
            if let client = slot.client { return client }
            let client = slot.make()
            slot.client = client
            return client
        }
    }
    /// The client if one was made (a style asked a server), else nil.
    public var clientIfMade: TileHTTPClient? { clientSlot.withLock { $0.client } }
    public let cache: DiskTileCache?
    /// Render from the disk cache only: a tile not there is missing, nothing is requested.
    public let offline: Bool
    /// When a document a source needs while loading (a TileJSON, WMTS capabilities) cannot be
    /// had because no server answers, load the style anyway: the layer draws nothing and the
    /// style's `notes` say why. For checking styles where their servers do not run.
    public let documentsMayBeUnreachable: Bool
    /// Environment variables any style may read as `${NAME}`, besides those its own `env:`
    /// lists (the command line's `--allow-env`).
    public let allowedVariables: Set<String>
    /// Send only `allowedVariables`, not those a style's `env:` lists: for checking a style
    /// someone else wrote (`validate`), whose documents are then not fetched.
    public let sendsOnlyAllowedVariables: Bool

    private let clientSlot: Mutex<(client: TileHTTPClient?, make: @Sendable () -> TileHTTPClient)>

    public init(client: @autoclosure @escaping @Sendable () -> TileHTTPClient = TileHTTPClient(),
                cache: DiskTileCache? = DiskTileCache(root: DiskTileCache.defaultRoot()), offline: Bool = false,
                documentsMayBeUnreachable: Bool = false, allowedVariables: Set<String> = [],
                sendsOnlyAllowedVariables: Bool = false) {
        clientSlot = Mutex((nil, client))
        self.cache = cache
        self.offline = offline
        self.documentsMayBeUnreachable = documentsMayBeUnreachable
        self.allowedVariables = allowedVariables
        self.sendsOnlyAllowedVariables = sendsOnlyAllowedVariables
    }

    /// The process default: environment proxies, the default cache folder, online.
    public static let standard = RemoteEnvironment()
}
