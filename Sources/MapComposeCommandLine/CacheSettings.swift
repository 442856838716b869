import Foundation
import MapComposeCore

/// Where remote sources keep their tiles and whether they may ask servers, as plain values:
/// what `CacheOptions` parses, and what a render parsed without ArgumentParser carries.
public struct CacheSettings: Equatable, Sendable {
    public var cacheDir: String?
    public var noCache = false
    public var offline = false
    public var allowEnv: [String] = []

    public init(cacheDir: String? = nil, noCache: Bool = false, offline: Bool = false, allowEnv: [String] = []) {
        self.cacheDir = cacheDir
        self.noCache = noCache
        self.offline = offline
        self.allowEnv = allowEnv
    }

    /// The cache root these settings name.
    public var cacheRoot: URL {
        cacheDir.map { URL(fileURLWithPath: $0) } ?? DiskTileCache.defaultRoot()
    }

    /// The remote environment for a render (see `RemoteEnvironment.documentsMayBeUnreachable`
    /// and `sendsOnlyAllowedVariables`).
    public func environment(documentsMayBeUnreachable: Bool = false,
                     sendsOnlyAllowedVariables: Bool = false) throws(CLIFailure) -> RemoteEnvironment {
        for name in allowEnv where !EnvironmentReference.isVariableName(name) {
            throw CLIFailure("--allow-env '\(name)': expected an environment variable name (letters, digits and _)")
        }
        if noCache, offline { throw CLIFailure("--offline renders from the disk cache, which --no-cache turns off: use one of them") }
        if let cacheDir, cacheDir.isEmpty { throw CLIFailure("--cache-dir is empty: give a folder") }
        let root = cacheRoot
        var isFolder: ObjCBool = false
        if !noCache, FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder), !isFolder.boolValue {
            throw CLIFailure("--cache-dir \(root.path) is a file, not a folder: give a folder (it is created if missing)")
        }
        return RemoteEnvironment(cache: noCache ? nil : DiskTileCache(root: root), offline: offline,
                                 documentsMayBeUnreachable: documentsMayBeUnreachable, allowedVariables: Set(allowEnv),
                                 sendsOnlyAllowedVariables: sendsOnlyAllowedVariables)
    }
}
