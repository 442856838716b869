import ArgumentParser
import Foundation
import MapComposeCore

/// `--cache-dir`, `--no-cache` and `--offline`: where remote sources keep their tiles, and
/// whether they may ask servers at all.
public struct CacheOptions: ParsableArguments {
    @Option(help: "Disk cache folder for remote sources (default: $XDG_CACHE_HOME/mapcompose, else ~/.cache/mapcompose).")
    public var cacheDir: String?

    @Flag(help: "Do not read or write the disk cache.")
    public var noCache = false

    @Flag(help: "Render from the disk cache only: send no request; a tile not cached is missing.")
    public var offline = false

    @Option(help: "An environment variable styles may read as ${NAME} besides those their env: lists (repeatable).")
    public var allowEnv: [String] = []

    public init() {}

    /// The options as plain values.
    public var settings: CacheSettings {
        CacheSettings(cacheDir: cacheDir, noCache: noCache, offline: offline, allowEnv: allowEnv)
    }

    /// The cache root these options name.
    public var cacheRoot: URL { settings.cacheRoot }

    /// The remote environment for a render (see `RemoteEnvironment.documentsMayBeUnreachable`
    /// and `sendsOnlyAllowedVariables`).
    public func environment(documentsMayBeUnreachable: Bool = false,
                     sendsOnlyAllowedVariables: Bool = false) throws(CLIFailure) -> RemoteEnvironment {
        try settings.environment(documentsMayBeUnreachable: documentsMayBeUnreachable,
                                 sendsOnlyAllowedVariables: sendsOnlyAllowedVariables)
    }
}
