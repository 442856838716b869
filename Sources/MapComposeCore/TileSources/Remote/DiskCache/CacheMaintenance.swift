import Foundation

/// Size accounting and clean-up of cache folders: what `mapcompose cache stats|prune|clear`
/// and the automatic size cap use.
public enum CacheMaintenance {
    /// Totals of one folder.
    public struct Usage: Sendable, Equatable {
        public var entries = 0
        public var bytes = 0
        /// Temporary files left by a process that was killed mid-write.
        public var leftovers = 0
    }

    /// Temporary files older than this (seconds) belong to a dead writer.
    static let leftoverAge: Double = 3_600

    private struct File {
        var url: URL
        var bytes: Int
        var modified: Date
        var isEntry: Bool
    }

    private static func files(in folder: URL) -> [File] {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys) else { return [] }
        var files: [File] = []
        for case let url as URL in enumerator {
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
            let name = url.lastPathComponent
            files.append(File(url: url, bytes: values.fileSize ?? 0, modified: values.contentModificationDate ?? .distantPast,
                              isEntry: name.hasSuffix(CacheSpace.entrySuffix) && !name.hasPrefix(".")))
        }
        return files
    }

    /// Entries, bytes and leftover temporary files under `folder`.
    public static func usage(of folder: URL) -> Usage {
        var usage = Usage()
        for file in files(in: folder) {
            if file.isEntry {
                usage.entries += 1
                usage.bytes += file.bytes
            } else if file.url.lastPathComponent.hasSuffix(".tmp") {
                usage.leftovers += 1
            }
        }
        return usage
    }

    /// Removes stale temporary files, then least recently used entries until the entries take at
    /// most 90 % of `maxBytes` (when they exceed `maxBytes`). Returns the entries removed.
    @discardableResult
    public static func evict(_ folder: URL, toFit maxBytes: Int, now: Date = Date()) -> Int {
        let all = files(in: folder)
        for file in all where !file.isEntry && file.url.lastPathComponent.hasSuffix(".tmp")
            && now.timeIntervalSince(file.modified) > leftoverAge {
            try? FileManager.default.removeItem(at: file.url)
        }
        let entries = all.filter(\.isEntry)
        var total = entries.reduce(0) { $0 + $1.bytes }
        guard total > maxBytes else { return 0 }
        let target = maxBytes / 10 * 9
        var removed = 0
        for file in entries.sorted(by: { $0.modified < $1.modified }) where total > target {
            if (try? FileManager.default.removeItem(at: file.url)) != nil {
                total -= file.bytes
                removed += 1
            }
        }
        return removed
    }
}
