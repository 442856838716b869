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

    /// The options as plain values.
    var settings: CacheSettings { CacheSettings(cacheDir: cacheDir, noCache: noCache, offline: offline) }

    /// The cache root these options name.
    var cacheRoot: URL { settings.cacheRoot }

    /// The remote environment for a render (see `RemoteEnvironment.documentsMayBeUnreachable`).
    func environment(documentsMayBeUnreachable: Bool = false) throws(CLIFailure) -> RemoteEnvironment {
        try settings.environment(documentsMayBeUnreachable: documentsMayBeUnreachable)
    }
}
