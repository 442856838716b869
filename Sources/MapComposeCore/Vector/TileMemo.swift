import Foundation

/// The decoded tiles of a MapLibre style's sources kept between renders of a process (a batch,
/// a server), by source identity and address: at most `byteBudget` bytes of them (a vector
/// tile counts its bytes, which its features are read from; a raster tile its pixels), the
/// least recently used given up first. A tile larger than the whole budget is not kept.
final class TileMemo: @unchecked Sendable {
    /// The budget of a style's memo: as much as the tile store keeps by default.
    static let defaultByteBudget = TileStore.defaultMemoryBudget

    let byteBudget: Int
    private let lock = NSLock()
    private var entries: [String: (content: PlacedTile.Content, bytes: Int, use: Int)] = [:]
    /// Keys by last use (a counter); a key's older uses are passed over when evicting.
    private var uses: [(key: String, use: Int)] = []
    private var usesEvicted = 0
    private var clock = 0
    private(set) var bytes = 0

    init(byteBudget: Int = TileMemo.defaultByteBudget) {
        self.byteBudget = max(0, byteBudget)
    }

    /// How many tiles are kept.
    var count: Int { lock.withLock { entries.count } }

    func get(_ key: String) -> PlacedTile.Content? {
        lock.withLock {
            guard let entry = entries[key] else { return nil }
            clock += 1
            entries[key]?.use = clock
            uses.append((key, clock))
            compactUses()
            return entry.content
        }
    }

    func put(_ key: String, _ content: PlacedTile.Content) {
        let size = Self.bytes(of: content)
        lock.withLock {
            if let old = entries.removeValue(forKey: key) { bytes -= old.bytes }
            guard size <= byteBudget else { return }
            clock += 1
            entries[key] = (content, size, clock)
            uses.append((key, clock))
            bytes += size
            while bytes > byteBudget, usesEvicted < uses.count {
                let oldest = uses[usesEvicted]
                usesEvicted += 1
                // Only a key's latest use stands for it.
                guard let entry = entries[oldest.key], entry.use == oldest.use else { continue }
                entries.removeValue(forKey: oldest.key)
                bytes -= entry.bytes
            }
            compactUses()
        }
    }

    /// Drops the uses already passed when they are most of the list.
    private func compactUses() {
        if usesEvicted > 1024, usesEvicted * 2 > uses.count {
            uses.removeFirst(usesEvicted)
            usesEvicted = 0
        }
        // Uses of keys long since used again pile up where nothing is evicted: keep the list
        // within a few times the entries.
        if uses.count - usesEvicted > 4 * entries.count + 1024 {
            uses = uses[usesEvicted...].filter { entries[$0.key]?.use == $0.use }
            usesEvicted = 0
        }
    }

    /// What a tile takes in memory, roughly.
    static func bytes(of content: PlacedTile.Content) -> Int {
        switch content {
        case .vector(let tile): return tile.byteCount + 256 * tile.layers.count
        case .raster(let image): return image.height * image.stride
        }
    }
}
