import Foundation

/// One layer's folder in the disk cache: an entry file per tile, written to a temporary file
/// and renamed into place, so a crash or a concurrent writer in another process leaves either
/// the old entry or the new one, never half of one. Reading refreshes an entry's modification
/// time, which orders least-recently-used eviction when the folder outgrows its size cap.
public final class CacheSpace: @unchecked Sendable {
    /// File name suffix of entries.
    static let entrySuffix = ".tile"
    /// Reads refresh an entry's modification time at most this often (seconds).
    static let touchInterval: Double = 60

    public let folder: URL
    public let maxBytes: Int
    private let lock = NSLock()
    private var bytesSinceCheck = 0
    private var checking = false

    init(folder: URL, maxBytes: Int) {
        self.folder = folder
        self.maxBytes = maxBytes
    }

    /// The file holding `key` (such as `12/2047/1362@2x`).
    func fileURL(_ key: String) -> URL { folder.appendingPathComponent(key + Self.entrySuffix) }

    /// The entry for `key`, or nil. A file that is not a whole entry is removed. Reading marks
    /// the entry used (its modification time, at most once a minute).
    public func read(_ key: String) async -> CacheEntry? {
        let url = fileURL(key)
        return entry(await TileFileReader.read(url.path, touchingOlderThan: Self.touchInterval), at: url)
    }

    /// `read` on the calling thread, for callers outside Swift concurrency.
    public func readNow(_ key: String) -> CacheEntry? {
        let url = fileURL(key)
        return entry(TileFileReader.readNow(url.path, touchingOlderThan: Self.touchInterval), at: url)
    }

    private func entry(_ outcome: TileFileReader.Outcome, at url: URL) -> CacheEntry? {
        guard case .data(let data) = outcome else { return nil }
        guard let entry = CacheEntry(decoding: data) else {
            try? FileManager.default.removeItem(at: url)
            return nil
        }
        return entry
    }

    /// Stores `entry` under `key`, replacing any older one atomically.
    public func write(_ key: String, _ entry: CacheEntry) {
        let url = fileURL(key)
        let data = entry.encoded()
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(
            ".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: .min ... .max)).tmp")
        // The temporary is registered while it exists, so a process interrupted meanwhile
        // removes it (see `PendingFileRegistry`). The rename replaces whatever the entry's name
        // was, a link included, never writing through it.
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            return
        }
        PendingFileRegistry.beginCreating()
        let registration = PendingFileRegistry.register(temporary.path)
        let written = (try? data.write(to: temporary)) != nil
        PendingFileRegistry.endCreating()
        defer { PendingFileRegistry.unregister(registration) }
        guard written, rename(temporary.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            return
        }
        let due: Bool = lock.withLock {
            bytesSinceCheck += data.count
            guard !checking, bytesSinceCheck > max(1 << 20, maxBytes / 20) else { return false }
            checking = true
            bytesSinceCheck = 0
            return true
        }
        if due {
            _ = CacheMaintenance.evict(folder, toFit: maxBytes)
            lock.withLock { checking = false }
        }
    }

    /// Forgets `key` (an entry that did not decode); true when there was one.
    @discardableResult
    public func remove(_ key: String) -> Bool {
        (try? FileManager.default.removeItem(at: fileURL(key))) != nil
    }
}
