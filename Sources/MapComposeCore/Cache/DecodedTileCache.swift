/// Decoded tiles kept in memory, bounded in bytes, least recently used evicted first.
///
/// Not thread-safe on its own: `TileStore` guards it with its lock.
struct DecodedTileCache {
    struct Entry {
        let image: RasterImage
        let origin: String
        var lastUse: UInt64
    }

    /// Most bytes of pixels kept.
    let budget: Int
    private(set) var bytes = 0
    private(set) var evictions = 0
    private var entries: [TileKey: Entry] = [:]
    private var clock: UInt64 = 0
    /// Tiles kept per slab (see TileSlab.swift): a slab's pixels are counted whole, once, while
    /// any of its tiles is kept, for they are all held until the last goes.
    private var tilesPerSlab: [ObjectIdentifier: Int] = [:]

    init(budget: Int) {
        self.budget = max(0, budget)
    }

    var count: Int { entries.count }

    mutating func get(_ key: TileKey) -> Entry? {
        guard var entry = entries[key] else { return nil }
        clock += 1
        entry.lastUse = clock
        entries[key] = entry
        return entry
    }

    /// Keeps `image` unless it alone is over the budget; evicts old entries to make room.
    mutating func put(_ key: TileKey, image: RasterImage, origin: String) {
        guard (image.slabCell?.slab.image ?? image).byteCount <= budget else { return }
        clock += 1
        if let old = entries.updateValue(Entry(image: image, origin: origin, lastUse: clock), forKey: key) {
            release(old.image)
        }
        hold(image)
        if bytes > budget { evict() }
    }

    /// Counts the bytes `image` holds: its own pixels, or its slab's when it is the first of
    /// that slab kept.
    private mutating func hold(_ image: RasterImage) {
        guard let slab = image.slabCell?.slab else {
            bytes += image.byteCount
            return
        }
        let id = ObjectIdentifier(slab)
        if tilesPerSlab[id, default: 0] == 0 { bytes += slab.image.byteCount }
        tilesPerSlab[id, default: 0] += 1
    }

    /// Stops counting what `hold` counted for `image`.
    private mutating func release(_ image: RasterImage) {
        guard let slab = image.slabCell?.slab else {
            bytes -= image.byteCount
            return
        }
        let id = ObjectIdentifier(slab)
        let left = tilesPerSlab[id, default: 1] - 1
        tilesPerSlab[id] = left > 0 ? left : nil
        if left == 0 { bytes -= slab.image.byteCount }
    }

    /// Drops the least recently used entries until a tenth of the budget is free, so that
    /// eviction (a sort) runs once per many insertions.
    private mutating func evict() {
        let target = budget - budget / 10
        for (key, entry) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard bytes > target else { break }
            entries[key] = nil
            release(entry.image)
            evictions += 1
        }
    }
}
