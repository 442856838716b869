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
/// for the store's life, transient failures are not. At most `maxInFlight` tiles are fetched
/// and decoded at once, across all layers and renders.
public final class TileStore: @unchecked Sendable {
    /// Default memory budget for decoded tiles.
    public static let defaultMemoryBudget = 256 << 20
    /// A tile may have up to this many times the pixels of its grid cell on a side (@4x).
    public static let maxPixelRatio = 4

    private let lock = NSLock()
    private var memory: DecodedTileCache
    private var misses: [TileKey: (reason: TileMissReason, origin: String)] = [:]
    private var inFlight: [TileKey: Task<StoredTile, Never>] = [:]
    private var counters = TileStoreStatistics()
    private let limiter: AsyncSemaphore

    /// - Parameters:
    ///   - memoryBudget: most bytes of decoded pixels kept between requests.
    ///   - maxInFlight: most tiles fetched and decoded at once.
    public init(memoryBudget: Int = TileStore.defaultMemoryBudget, maxInFlight: Int = 16) {
        memory = DecodedTileCache(budget: memoryBudget)
        limiter = AsyncSemaphore(maxInFlight)
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
        enum Lookup { case done(StoredTile), wait(Task<StoredTile, Never>, shared: Bool) }
        let lookup: Lookup = lock.withLock {
            if let entry = memory.get(key) {
                counters.memoryHits += 1
                return .done(StoredTile(content: .image(entry.image), origin: entry.origin, provenance: .memory))
            }
            if let miss = misses[key] {
                counters.rememberedMisses += 1
                return .done(StoredTile(content: .missing(miss.reason), origin: miss.origin, provenance: .rememberedMiss))
            }
            if let task = inFlight[key] {
                counters.sharedInFlight += 1
                return .wait(task, shared: true)
            }
            let task = Task { await self.load(key, coord: coord, pixelRatio: pixelRatio, source: source) }
            inFlight[key] = task
            return .wait(task, shared: false)
        }
        switch lookup {
        case .done(let tile):
            return tile
        case .wait(let task, let shared):
            let tile = await task.value
            return shared ? StoredTile(content: tile.content, origin: tile.origin, provenance: .inFlight) : tile
        }
    }

    private func load(_ key: TileKey, coord: TileCoord, pixelRatio: Int, source: any TileSource) async -> StoredTile {
        let tile = await limiter.withPermit {
            await Self.fetchAndDecode(coord, pixelRatio: pixelRatio, from: source)
        }
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
        return tile
    }

    /// Asks the source, decodes encoded bytes, and refuses images far larger than the grid cell.
    /// A disk-cached copy that does not decode is dropped and the source asked once more.
    static func fetchAndDecode(_ coord: TileCoord, pixelRatio: Int, from source: any TileSource) async -> StoredTile {
        let tile = await fetchAndDecodeOnce(coord, pixelRatio: pixelRatio, from: source)
        guard tile.cameFromDiskCache, case .missing(.undecodable) = tile.content,
              await source.dropCachedCopy(coord, pixelRatio: pixelRatio) else { return tile }
        return await fetchAndDecodeOnce(coord, pixelRatio: pixelRatio, from: source)
    }

    private static func fetchAndDecodeOnce(_ coord: TileCoord, pixelRatio: Int, from source: any TileSource) async -> StoredTile {
        let fetch = await source.fetch(coord, pixelRatio: pixelRatio)
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
                return checked(try TileDecoder.decode(data), decoded: true)
            } catch {
                return missing(.undecodable(error), decoded: true)
            }
        }
    }
}
