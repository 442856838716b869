import Foundation

/// Counters of one store since it was made.
public struct TileStoreStatistics: Sendable, Equatable {
    /// Requests that went to a source.
    public var fetched = 0
    /// Encoded tiles decoded.
    public var decoded = 0
    /// Requests answered from memory, by an in-flight request, or by a remembered miss.
    public var memoryHits = 0
    public var sharedInFlight = 0
    public var rememberedMisses = 0
    /// Decoded tiles dropped to stay within the memory budget.
    public var evictions = 0
    /// Bytes of decoded pixels held now.
    public var bytesHeld = 0
}

/// The tiles of every render of a process: the same tile (source identity, level, column, row,
/// pixel ratio) asked for while in flight is fetched once; decoded tiles are kept in memory
/// within a byte budget (least recently used dropped first); definite misses are remembered
/// for the store's life, transient failures are not. At most `maxInFlight` fetches run at once,
/// across all layers and renders: a fetch is one tile, or a job reading a block's worth of a
/// local source's tiles together (decoded on all cores, a few at a time).
public final class TileStore: @unchecked Sendable {
    /// Default memory budget for decoded tiles.
    public static let defaultMemoryBudget = 256 << 20
    /// A tile may have up to this many times the pixels of its grid cell on a side (@4x).
    public static let maxPixelRatio = 4

    private let lock = NSLock()
    private var memory: DecodedTileCache
    private var misses: [TileKey: (reason: TileMissReason, origin: String)] = [:]
    private var inFlight: [TileKey: InFlightTile] = [:]
    private var counters = TileStoreStatistics()
    private let limiter: AsyncSemaphore
    private let decodesIntoSlabs: Bool

    /// - Parameters:
    ///   - memoryBudget: most bytes of decoded pixels kept between requests.
    ///   - maxInFlight: most fetches at once (a tile, or a job of local tiles read together).
    ///   - slabs: decode a rectangle of local tiles read together straight into one image (see
    ///     TileSlab.swift), which spares stitching them. Best for a store serving one map; one
    ///     serving many does better without: tile buffers are recycled from map to map, a
    ///     slab's memory is not, and its tiles are seldom one map's mosaic again.
    public init(memoryBudget: Int = TileStore.defaultMemoryBudget, maxInFlight: Int = 16, slabs: Bool = true) {
        memory = DecodedTileCache(budget: memoryBudget)
        limiter = AsyncSemaphore(maxInFlight)
        decodesIntoSlabs = slabs
    }

    public var statistics: TileStoreStatistics {
        lock.withLock {
            var s = counters
            s.evictions = memory.evictions
            s.bytesHeld = memory.bytes
            return s
        }
    }

    /// The tile at `coord` of `source`'s grid (column already wrapped), asked at `pixelRatio`.
    public func tile(_ coord: TileCoord, pixelRatio: Int, from source: any TileSource) async -> StoredTile {
        let key = TileKey(source: source.info.identity, coord: coord, pixelRatio: pixelRatio)
        let lookup: Held = lock.withLock {
            if let held = held(key) { return held }
            let load = InFlightTile.one(Task { await self.load(key, coord: coord, pixelRatio: pixelRatio, source: source) })
            inFlight[key] = load
            return .started(load)
        }
        return await lookup.tile(key)
    }

    /// What a request for a tile waits on: the tile itself, a fetch another request started,
    /// or a fetch this one started.
    private enum Held {
        case ready(StoredTile)
        case shared(InFlightTile)
        case started(InFlightTile)

        /// The tile, as this request was served.
        func tile(_ key: TileKey) async -> StoredTile {
            switch self {
            case .ready(let tile):
                return tile
            case .shared(let load):
                let tile = await load.tile(key)
                return StoredTile(content: tile.content, origin: tile.origin, provenance: .inFlight)
            case .started(let load):
                return await load.tile(key)
            }
        }
    }

    /// What the store already has for `key`, counted: a tile in memory, a remembered miss, or a
    /// fetch in flight; nil when the tile must be fetched. Called with the lock held.
    private func held(_ key: TileKey) -> Held? {
        if let entry = memory.get(key) {
            counters.memoryHits += 1
            return .ready(StoredTile(content: .image(entry.image), origin: entry.origin, provenance: .memory))
        }
        if let miss = misses[key] {
            counters.rememberedMisses += 1
            return .ready(StoredTile(content: .missing(miss.reason), origin: miss.origin, provenance: .rememberedMiss))
        }
        if let load = inFlight[key] {
            counters.sharedInFlight += 1
            return .shared(load)
        }
        return nil
    }

    /// The tiles at `coords` (columns already wrapped; each asked once however often it is
    /// listed) of `source`'s grid, asked at `pixelRatio`. A source that reads its tiles on the
    /// spot (`TileSource.localReader`) has those not in memory or in flight read and decoded
    /// together, on all cores, in one job; any other source is asked one tile at a time, as
    /// `tile` does.
    public func tiles(_ coords: [TileCoord], pixelRatio: Int, from source: any TileSource) async -> [TileCoord: StoredTile] {
        guard let reader = source.localReader, coords.count > 1 else {
            return await withTaskGroup(of: (TileCoord, StoredTile).self) { group in
                for coord in coords {
                    group.addTask { (coord, await self.tile(coord, pixelRatio: pixelRatio, from: source)) }
                }
                var found: [TileCoord: StoredTile] = [:]
                for await (coord, tile) in group { found[coord] = tile }
                return found
            }
        }
        let identity = source.info.identity
        var waits: [(coord: TileCoord, key: TileKey, held: Held)] = []
        lock.withLock {
            var toRead: [(coord: TileCoord, key: TileKey)] = []
            var seen = Set<TileCoord>(minimumCapacity: coords.count)
            for coord in coords where seen.insert(coord).inserted {
                let key = TileKey(source: identity, coord: coord, pixelRatio: pixelRatio)
                if let held = held(key) {
                    waits.append((coord, key, held))
                } else {
                    toRead.append((coord, key))
                }
            }
            guard !toRead.isEmpty else { return }
            let load = InFlightTile.batch(Task { await self.readTogether(toRead, with: reader, from: source) })
            for (coord, key) in toRead {
                inFlight[key] = load
                waits.append((coord, key, .started(load)))
            }
        }
        var found: [TileCoord: StoredTile] = [:]
        for wait in waits { found[wait.coord] = await wait.held.tile(wait.key) }
        return found
    }

    /// Reads and decodes `keys` with `reader` on all cores, off the cooperative pool, holding
    /// one permit of the in-flight limit; then keeps them as `load` keeps one tile. When the
    /// tiles are every tile of a rectangle and nearly all of them have bytes, they are decoded
    /// straight into the cells of one `TileSlab`.
    private func readTogether(_ tiles: [(coord: TileCoord, key: TileKey)], with reader: @escaping TileSource.LocalReader,
                              from source: any TileSource) async -> [TileKey: StoredTile] {
        let read = await limiter.withPermit {
            await TileFileReader.perform {
                let fetches = ConcurrentWork.map(tiles.count) { index in reader(tiles[index].coord, tiles[index].key.pixelRatio) }
                let slab = self.slab(for: tiles.map(\.coord), fetched: fetches, of: source, pixelRatio: tiles[0].key.pixelRatio)
                let decoded = ConcurrentWork.map(tiles.count) { index in
                    let coord = tiles[index].coord
                    return Self.decoded(fetches[index], of: source, pixelRatio: tiles[index].key.pixelRatio) { width, height in
                        slab?.target(for: coord, width: width, height: height)
                    }
                }
                return slab?.finishDecoding(decoded, at: tiles.map(\.coord)) ?? decoded
            }
        }
        var loaded: [TileKey: StoredTile] = [:]
        for ((_, key), tile) in zip(tiles, read) {
            loaded[key] = tile
            finish(key, tile, from: source)
        }
        return loaded
    }

    /// A slab for `coords` (read as `fetched`) when this store decodes into slabs, they are
    /// every tile of a rectangle and at least three in four of them have bytes to decode (a
    /// sparse rectangle would hold more memory than its tiles), with cells of the size the
    /// source's tiles have at `pixelRatio` (known only for ratio 1 and sources that draw at any).
    private func slab(for coords: [TileCoord], fetched: [TileFetch], of source: any TileSource, pixelRatio: Int) -> TileSlab? {
        let encoded = fetched.count { if case .found(.encoded) = $0.outcome { true } else { false } }
        guard decodesIntoSlabs, 4 * encoded >= 3 * coords.count, pixelRatio == 1 || source.info.drawsAtAnyPixelRatio,
              let range = TileSlab.rectangle(of: coords) else { return nil }
        let matrix = source.info.matrix
        return TileSlab(range: range, cellWidth: matrix.tileWidth * pixelRatio, cellHeight: matrix.tileHeight * pixelRatio)
    }

    private func load(_ key: TileKey, coord: TileCoord, pixelRatio: Int, source: any TileSource) async -> StoredTile {
        let tile = await limiter.withPermit {
            await Self.fetchAndDecode(coord, pixelRatio: pixelRatio, from: source)
        }
        finish(key, tile, from: source)
        return tile
    }

    /// Records a tile fetched for `key`: no longer in flight, counted, and kept in memory or
    /// remembered as a definite miss.
    private func finish(_ key: TileKey, _ tile: StoredTile, from source: any TileSource) {
        lock.withLock {
            inFlight[key] = nil
            counters.fetched += 1
            if case .source(decoded: true) = tile.provenance { counters.decoded += 1 }
            switch tile.content {
            case .image(let image):
                if source.info.keepsTilesInMemory { memory.put(key, image: image, origin: tile.origin) }
            case .missing(let reason):
                if reason.isDefinite { misses[key] = (reason, tile.origin) }
            }
        }
    }

    /// Asks the source, decodes encoded bytes, and refuses images far larger than the grid cell.
    /// A refused tile (it does not decode, or is far too large) is dropped from the disk cache,
    /// so it is never reused (offline, say); a disk-cached copy that does not decode is dropped
    /// and the source asked once more.
    static func fetchAndDecode(_ coord: TileCoord, pixelRatio: Int, from source: any TileSource) async -> StoredTile {
        let tile = await fetchAndDecodeOnce(coord, pixelRatio: pixelRatio, from: source)
        guard case .missing(let reason) = tile.content else { return tile }
        switch reason {
        case .undecodable:
            guard await source.dropCachedCopy(coord, pixelRatio: pixelRatio), tile.cameFromDiskCache else { return tile }
            return await fetchAndDecodeOnce(coord, pixelRatio: pixelRatio, from: source)
        case .wrongSize:
            _ = await source.dropCachedCopy(coord, pixelRatio: pixelRatio)
            return tile
        default:
            return tile
        }
    }

    private static func fetchAndDecodeOnce(_ coord: TileCoord, pixelRatio: Int, from source: any TileSource) async -> StoredTile {
        decoded(await source.fetch(coord, pixelRatio: pixelRatio), of: source, pixelRatio: pixelRatio)
    }

    /// What `source` fetched, decoded when it is encoded, and refused when far larger than the
    /// grid cell at `pixelRatio`.
    /// Encoded bytes are decoded into the image `target(width, height)` gives, if any.
    private static func decoded(_ fetch: TileFetch, of source: any TileSource, pixelRatio: Int,
                                into target: (_ width: Int, _ height: Int) -> RasterImage? = { _, _ in nil }) -> StoredTile {
        let matrix = source.info.matrix
        let maxWidth = matrix.tileWidth * pixelRatio * maxPixelRatio
        let maxHeight = matrix.tileHeight * pixelRatio * maxPixelRatio
        func missing(_ reason: TileMissReason, decoded: Bool) -> StoredTile {
            StoredTile(content: .missing(reason), origin: fetch.origin, provenance: .source(decoded: decoded),
                       cameFromDiskCache: fetch.fromDiskCache)
        }
        func wrongSize(_ width: Int, _ height: Int) -> TileMissReason {
            .wrongSize(width: width, height: height, expectedWidth: matrix.tileWidth * pixelRatio,
                       expectedHeight: matrix.tileHeight * pixelRatio)
        }
        func checked(_ image: RasterImage, decoded: Bool) -> StoredTile {
            guard image.width <= maxWidth, image.height <= maxHeight else {
                return missing(wrongSize(image.width, image.height), decoded: decoded)
            }
            return StoredTile(content: .image(image), origin: fetch.origin, provenance: .source(decoded: decoded))
        }
        switch fetch.outcome {
        case .missing(let reason):
            return missing(reason, decoded: false)
        case .found(.raster(let image)):
            return checked(image, decoded: false)
        case .found(.encoded(let data)):
            if let size = TileDecoder.headerSize(data), size.width > maxWidth || size.height > maxHeight {
                return missing(wrongSize(size.width, size.height), decoded: false)
            }
            do {
                return checked(try TileDecoder.decode(data, into: target), decoded: true)
            } catch {
                return missing(.undecodable(error), decoded: true)
            }
        }
    }
}
