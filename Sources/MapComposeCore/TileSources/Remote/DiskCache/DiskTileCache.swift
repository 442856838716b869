import Foundation

/// The disk cache of remote sources: a root folder (`--cache-dir`, by default
/// `$XDG_CACHE_HOME/mapcompose`) with one folder per layer cache. Several processes, on one
/// machine or sharing the folder over a network file system, may use it at once: every file is
/// written whole under a temporary name and renamed into place, and no lock is held.
public final class DiskTileCache: Sendable {
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    /// `$XDG_CACHE_HOME/mapcompose`, else `~/.cache/mapcompose`.
    public static func defaultRoot() -> URL {
        // Two variables read directly: building the whole environment dictionary is not free.
        defaultRoot { name in getenv(name).map { String(cString: $0) } }
    }

    private static func defaultRoot(variable environment: (String) -> String?) -> URL {
        // Joined as strings: the first URL appending in a process looks up conformances at run
        // time, and this runs before every render.
        func folder(_ parent: String, _ relative: String) -> URL {
            URL(fileURLWithPath: (parent.hasSuffix("/") ? parent : parent + "/") + relative, isDirectory: true)
        }
        if let xdg = environment("XDG_CACHE_HOME"), xdg.hasPrefix("/") {
            return folder(xdg, "mapcompose")
        }
        return folder(environment("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory(), ".cache/mapcompose")
    }

    /// The folder for `description`, with its `cache.json` written when absent or changed.
    public func space(for description: CacheDescription) -> CacheSpace {
        let folder = root.appendingPathComponent(description.id)
        let file = folder.appendingPathComponent(CacheDescription.fileName)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        if let data = try? encoder.encode(description), (try? Data(contentsOf: file)) != data {
            let temporary = folder.appendingPathComponent(".\(CacheDescription.fileName).\(getpid()).\(UInt32.random(in: .min ... .max)).tmp")
            if (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil,
               (try? data.write(to: temporary)) != nil {
                if rename(temporary.path, file.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
            }
        }
        return CacheSpace(folder: folder, maxBytes: description.maxBytes)
    }

    /// Every layer cache under the root, by id: the folders that carry a `cache.json` of this
    /// format. Other folders are not caches and are never listed, pruned or deleted.
    public func descriptions() -> [CacheDescription] {
        entries().compactMap(\.description)
    }

    /// The names of the folders under the root that carry no cache mark.
    public func unmarkedFolders() -> [String] {
        entries().filter { $0.description == nil }.map(\.name)
    }

    private func entries() -> [(name: String, description: CacheDescription?)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root.path) else { return [] }
        return names.sorted().compactMap { name in
            guard !name.hasPrefix(".") else { return nil }
            let folder = root.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else { return nil }
            let file = folder.appendingPathComponent(CacheDescription.fileName)
            guard let data = try? Data(contentsOf: file), var description = CacheDescription.marked(data) else {
                return (name, nil)
            }
            description.id = name
            return (name, description)
        }
    }

    /// The folder of the cache with `id`.
    public func folder(id: String) -> URL { root.appendingPathComponent(id) }
}
