import Foundation
import Logging
import MapComposeCore

/// The styles a server serves, by name: loaded once, reloaded when their file changes on disk
/// or on SIGHUP. A style that no longer loads keeps serving its last good version, and the
/// server logs why.
final class StyleRegistry: @unchecked Sendable {
    /// A loaded style, with what its file looked like when it was read.
    struct Loaded: Sendable {
        let style: MapStyle
        let stamp: FileStamp?
        /// Counts the loads of this name, so a reloaded style's tiles are told apart.
        let generation: Int
    }

    /// A file's identity and change marks; nil for a built-in style.
    struct FileStamp: Equatable, Sendable {
        let modified: Date
        let size: Int
        let inode: Int

        init?(path: String) {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  let modified = attributes[.modificationDate] as? Date else { return nil }
            self.modified = modified
            size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            inode = (attributes[.systemFileNumber] as? NSNumber)?.intValue ?? 0
        }
    }

    let entries: [ServeConfiguration.StyleEntry]
    private let remote: RemoteEnvironment
    private let logger: Logger
    private let lock = NSLock()
    private var loaded: [String: Loaded] = [:]
    /// The stamp of the last version that failed, so a broken file is reported once.
    private var failedStamps: [String: FileStamp?] = [:]

    init(entries: [ServeConfiguration.StyleEntry], remote: RemoteEnvironment, logger: Logger) {
        self.entries = entries
        self.remote = remote
        self.logger = logger
    }

    /// The style served as `name`: only configured names, never a path.
    func style(_ name: String) -> (entry: ServeConfiguration.StyleEntry, loaded: Loaded)? {
        guard let entry = entries.first(where: { $0.name == name }) else { return nil }
        guard let loaded = lock.withLock({ self.loaded[name] }) else { return nil }
        return (entry, loaded)
    }

    /// True once every configured style has loaded.
    var allLoaded: Bool { lock.withLock { loaded.count == entries.count } }

    /// Loads every style; false when one failed (it is logged).
    @discardableResult
    func loadAll() -> Bool {
        var ok = true
        for entry in entries where !reload(entry, force: true) { ok = false }
        return ok
    }

    /// Reloads the styles whose file changed since it was read (or since it last failed).
    func reloadChanged() {
        for entry in entries {
            let isBuiltIn = isBuiltIn(entry)
            if isBuiltIn { continue }
            let stamp = FileStamp(path: entry.file)
            let current = lock.withLock { loaded[entry.name] }
            if let current, current.stamp == stamp { continue }
            if let failed = lock.withLock({ failedStamps[entry.name] }), failed == stamp { continue }
            reload(entry, force: false)
        }
    }

    /// Loads `entry` again; on failure the loaded version stays and the problems are logged.
    @discardableResult
    func reload(_ entry: ServeConfiguration.StyleEntry, force: Bool) -> Bool {
        let stamp = isBuiltIn(entry) ? nil : FileStamp(path: entry.file)
        do {
            let style = try StyleLoader.load(nameOrPath: entry.file, remote: remote)
            let generation = lock.withLock { () -> Int in
                let next = (loaded[entry.name]?.generation ?? 0) + 1
                loaded[entry.name] = Loaded(style: style, stamp: stamp, generation: next)
                failedStamps[entry.name] = nil
                return next
            }
            logger.info("style loaded", metadata: ["style": "\(entry.name)", "file": "\(entry.file)",
                                                   "generation": "\(generation)"])
            return true
        } catch {
            let kept = lock.withLock { () -> Bool in
                failedStamps[entry.name] = .some(stamp)
                return loaded[entry.name] != nil
            }
            logger.error("style does not load\(kept ? "; serving its previous version" : "")",
                         metadata: ["style": "\(entry.name)", "file": "\(entry.file)",
                                    "problems": "\(error.lines.joined(separator: "; "))"])
            return false
        }
    }

    private func isBuiltIn(_ entry: ServeConfiguration.StyleEntry) -> Bool {
        BuiltInStyle.named(entry.file) != nil && !FileManager.default.fileExists(atPath: entry.file)
    }
}
