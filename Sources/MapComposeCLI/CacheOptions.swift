import ArgumentParser
import Foundation
import MapComposeCore

/// `--cache-dir`, `--no-cache` and `--offline`: where remote sources keep their tiles, and
/// whether they may ask servers at all.
struct CacheOptions: ParsableArguments {
    @Option(help: "Disk cache folder for remote sources (default: $XDG_CACHE_HOME/mapcompose, else ~/.cache/mapcompose).")
    var cacheDir: String?

    @Flag(help: "Do not read or write the disk cache.")
    var noCache = false

    @Flag(help: "Render from the disk cache only: send no request; a tile not cached is missing.")
    var offline = false

    @Option(help: "An environment variable styles may read as ${NAME} besides those their env: lists (repeatable).")
    var allowEnv: [String] = []

    /// The options as plain values.
    var settings: CacheSettings {
        CacheSettings(cacheDir: cacheDir, noCache: noCache, offline: offline, allowEnv: allowEnv)
    }

    /// The cache root these options name.
    var cacheRoot: URL { settings.cacheRoot }

    /// The remote environment for a render (see `RemoteEnvironment.documentsMayBeUnreachable`
    /// and `sendsOnlyAllowedVariables`).
    func environment(documentsMayBeUnreachable: Bool = false,
                     sendsOnlyAllowedVariables: Bool = false) throws(CLIFailure) -> RemoteEnvironment {
        try settings.environment(documentsMayBeUnreachable: documentsMayBeUnreachable,
                                 sendsOnlyAllowedVariables: sendsOnlyAllowedVariables)
    }
}
