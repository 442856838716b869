import MapComposeCore

/// What fuzzed styles and sources reach remote servers through: a proxy on 127.0.0.1:9 that
/// refuses at once, and no disk cache, so no input sends traffic anywhere or leaves folders in
/// the user's cache.
public enum OfflineRemote {
    public static let environment = RemoteEnvironment(
        client: TileHTTPClient(environment: ["HTTP_PROXY": "127.0.0.1:9", "HTTPS_PROXY": "127.0.0.1:9"]),
        cache: nil, documentsMayBeUnreachable: true)
}
