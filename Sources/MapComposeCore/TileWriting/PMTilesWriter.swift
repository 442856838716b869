import Foundation

/// Writes a PMTiles version 3 archive: tiles added in any order, from any number of threads,
/// each distinct content stored once; `finish` writes the header, the root directory (leaf
/// directories when the root would pass the first 16 KB), the gzip'd JSON metadata and the
/// tile data, and renames the archive into place. The tile data is clustered: contents lie in
/// tile ID order, a content used again pointing back at its first copy.
///
/// Tiles wait in a scratch file beside the archive, not in memory; only their IDs and where
/// their contents lie are kept. Until `finish` succeeds the archive is a temporary file,
/// removed when the writer is released.
public final class PMTilesWriter: @unchecked Sendable {
    /// The archive's path.
    public let path: String
    public let tileType: PMTilesHeader.TileType
    /// How the tiles given to `add` are compressed (they are stored as given).
    public let tileCompression: PMTilesHeader.Compression

    private struct Tile {
        let id: UInt64
        let content: Int
    }

    private let lock = NSLock()
    private let output: PendingOutputFile
    private let store: PMTilesTileStore
    private var tiles: [Tile] = []
    private var ids = Set<UInt64>()
    private var finished = false

    /// Starts an archive at `url`: a temporary file beside it, and the scratch file.
    public init(url: URL, tileType: PMTilesHeader.TileType, tileCompression: PMTilesHeader.Compression) throws(OutputError) {
        path = url.path
        self.tileType = tileType
        self.tileCompression = tileCompression
        output = try PendingOutputFile(path: path)
        do {
            store = try PMTilesTileStore(folder: OutputPath.folder(of: output.targetPath),
                                         name: OutputPath.name(of: output.targetPath))
        } catch {
            output.discard()
            throw OutputError(path: path, reason: error.reason)
        }
    }

    /// Adds tile `z`/`x`/`y` (rows from the north), its bytes already compressed as
    /// `tileCompression` says. An empty tile is not stored (the archive has no such tile).
    public func add(z: Int, x: Int, y: Int, data: [UInt8]) throws(OutputError) {
        guard let id = PMTilesTileID.id(z: z, x: x, y: y) else {
            throw OutputError(path: path, reason: "tile \(z)/\(x)/\(y) is not a tile of a level 0…\(PMTilesTileID.maxZoom)")
        }
        guard !data.isEmpty else { return }
        let hash = PMTilesTileStore.hash(data)
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { throw OutputError(path: path, reason: "tile \(z)/\(x)/\(y) added after the archive was finished") }
        guard ids.insert(id).inserted else { throw OutputError(path: path, reason: "tile \(z)/\(x)/\(y) added twice") }
        do {
            tiles.append(Tile(id: id, content: try store.store(data, hash: hash)))
        } catch {
            throw OutputError(path: path, reason: error.reason)
        }
    }

    /// Writes the archive and renames it into place. `metadata` is the JSON object readers
    /// show (name, attribution, vector_layers …); `bounds` and `center` are in degrees.
    public func finish(metadata: [String: Any], minZoom: Int, maxZoom: Int,
                       bounds: (west: Double, south: Double, east: Double, north: Double),
                       center: (longitude: Double, latitude: Double, zoom: Int)) throws(OutputError) {
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { throw OutputError(path: path, reason: "the archive was already finished") }
        finished = true
        do {
            try write(metadata: metadata, minZoom: minZoom, maxZoom: maxZoom, bounds: bounds, center: center)
        } catch {
            output.discard()
            throw OutputError(path: path, reason: error.reason)
        }
    }

    private func write(metadata: [String: Any], minZoom: Int, maxZoom: Int,
                       bounds: (west: Double, south: Double, east: Double, north: Double),
                       center: (longitude: Double, latitude: Double, zoom: Int)) throws(PMTilesWriterFailure) {
        let levels = 0...PMTilesTileID.maxZoom
        guard levels.contains(minZoom), levels.contains(maxZoom), minZoom <= maxZoom, levels.contains(center.zoom) else {
            throw PMTilesWriterFailure("zoom levels \(minZoom)…\(maxZoom) (center \(center.zoom)) are not within 0…\(PMTilesTileID.maxZoom)")
        }
        guard JSONSerialization.isValidJSONObject(metadata),
              let json = try? JSONSerialization.data(withJSONObject: metadata, options: [.sortedKeys]) else {
            throw PMTilesWriterFailure("its metadata cannot be written as JSON")
        }
        let (entries, order) = layout()
        let (root, leaves) = PMTilesDirectory.rootAndLeaves(entries)
        let metadataBytes = Gzip.compress([UInt8](json))
        let rootStart = UInt64(PMTilesHeader.length)
        let metadataStart = rootStart + UInt64(root.count)
        let leavesStart = metadataStart + UInt64(metadataBytes.count)
        let tilesStart = leavesStart + UInt64(leaves.count)
        let tileBytes = order.reduce(UInt64(0)) { $0 + UInt64(store.contents[$1].length) }
        let header = PMTilesHeaderFields(
            rootDirectory: rootStart..<metadataStart, metadata: metadataStart..<leavesStart,
            leafDirectories: leavesStart..<tilesStart, tileData: tilesStart..<tilesStart + tileBytes,
            addressedTiles: UInt64(tiles.count), tileEntries: UInt64(entries.count), tileContents: UInt64(order.count),
            clustered: true, internalCompression: .gzip, tileCompression: tileCompression, tileType: tileType,
            minZoom: minZoom, maxZoom: maxZoom, bounds: bounds, center: center)
        var pending = header.encoded() + root + metadataBytes + leaves
        do {
            for content in order {
                pending += try store.read(content)
                if pending.count >= 1 << 22 {
                    try output.append(Data(pending))
                    pending.removeAll(keepingCapacity: true)
                }
            }
            try output.commit(Data(pending))
        } catch let error as OutputError {
            throw PMTilesWriterFailure(error.reason)
        } catch let error as PMTilesWriterFailure {
            throw error
        } catch {
            throw PMTilesWriterFailure("\(error)")
        }
    }

    /// The directory entries, sorted by tile ID with consecutive IDs of one content merged into
    /// runs, offsets from the start of the tile data; and the contents in the order they are
    /// written (each at its first tile).
    private func layout() -> (entries: [PMTilesDirectory.Entry], order: [Int]) {
        tiles.sort { $0.id < $1.id }
        var entries: [PMTilesDirectory.Entry] = [], order: [Int] = []
        var offsets = [UInt64?](repeating: nil, count: store.contents.count)
        var end: UInt64 = 0, previous: Tile?
        for tile in tiles {
            if let previous, previous.content == tile.content, let last = entries.last, last.tileID + last.runLength == tile.id {
                entries[entries.count - 1].runLength += 1
                continue
            }
            previous = tile
            let length = UInt64(store.contents[tile.content].length)
            let offset = offsets[tile.content] ?? end
            if offsets[tile.content] == nil {
                offsets[tile.content] = end
                order.append(tile.content)
                end += length
            }
            entries.append(.init(tileID: tile.id, offset: offset, length: length, runLength: 1))
        }
        return (entries, order)
    }
}
