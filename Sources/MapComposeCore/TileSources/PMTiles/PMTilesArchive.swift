import Foundation
import MapLibreStyleSpec

/// A PMTiles version 3 archive: its header and root directory read once, leaf directories as
/// tiles need them (the most recent kept), tiles found by level, column and row. Safe to use
/// from many tasks at once.
final class PMTilesArchive: Sendable {
    let header: PMTilesHeader
    /// The archive's JSON metadata, a JSON object (`{}` when it has none).
    let metadataJSON: Data
    /// The same, parsed.
    private let metadata: JSONObject
    private let reader: any PMTilesByteReader
    private let root: PMTilesDirectory
    private let leaves = LeafDirectories()

    /// Largest directory, compressed or not, and largest tile, once inflated.
    static let maxDirectoryBytes = 16 << 20
    static let maxTileBytes = 64 << 20
    /// Root, then at most three levels of leaves (the format needs far fewer).
    static let maxDepth = 4
    /// Deepest nesting of the metadata's JSON (what real archives write is a few levels deep).
    static let maxMetadataNesting = 512

    var name: String { reader.name }

    /// A string value of the metadata (e.g. `attribution`, `name`).
    func metadataText(_ key: String) -> String? { metadata[key]?.string }

    private init(header: PMTilesHeader, metadataJSON: Data, metadata: JSONObject, reader: any PMTilesByteReader,
                 root: PMTilesDirectory) {
        self.header = header
        self.metadataJSON = metadataJSON
        self.metadata = metadata
        self.reader = reader
        self.root = root
    }

    /// Reads the header, the root directory and the metadata, blocking the calling thread.
    static func open(_ reader: any PMTilesByteReader) -> Result<PMTilesArchive, PMTilesError> {
        do {
            // The header and, usually, the whole root directory lie in the first 16 KB.
            let first = try reader.readBlocking(0..<min(16_384, reader.size ?? 16_384)).get()
            let header = try PMTilesHeader(first, archiveSize: reader.size)
            let range = header.rootDirectory
            guard range.count <= UInt64(maxDirectoryBytes) else { throw PMTilesError.Reason("a directory of \(range.count) bytes") }
            let rootBytes = range.upperBound <= UInt64(first.count)
                ? first.subdata(in: Int(range.lowerBound)..<Int(range.upperBound)) : try reader.readBlocking(range).get()
            let root = try directory(rootBytes, header: header)
            var metadataJSON = Data("{}".utf8), metadata = JSONObject()
            if !header.metadata.isEmpty {
                guard header.metadata.count <= UInt64(maxDirectoryBytes) else {
                    throw PMTilesError.Reason("its metadata is \(header.metadata.count) bytes")
                }
                let bytes = try inflated(try reader.readBlocking(header.metadata).get(), header.internalCompression,
                                         limit: maxDirectoryBytes, what: "metadata")
                let parsed: JSONValue
                do {
                    parsed = try JSONValue.parse(bytes: [UInt8](bytes), maxDepth: maxMetadataNesting)
                } catch {
                    throw PMTilesError.Reason("its metadata is not JSON (\(error))")
                }
                guard let object = parsed.object else { throw PMTilesError.Reason("its metadata is not a JSON object") }
                metadataJSON = bytes
                metadata = object
            }
            return .success(PMTilesArchive(header: header, metadataJSON: metadataJSON, metadata: metadata, reader: reader,
                                           root: root))
        } catch let reason as PMTilesError.Reason {
            return .failure(PMTilesError(reader.name, reason))
        } catch {
            return .failure(PMTilesError(reader.name, .init("\(error)")))
        }
    }

    /// The tile's bytes, inflated when the archive compresses tiles; nil when the archive has
    /// no such tile.
    func tile(z: Int, x: Int, y: Int) async -> Result<Data?, PMTilesError.Reason> {
        guard let id = PMTilesTileID.id(z: z, x: x, y: y), (header.minZoom...header.maxZoom).contains(z) else {
            return .success(nil)
        }
        do {
            var directory = root
            for depth in 0..<Self.maxDepth {
                guard let entry = directory.find(id) else { return .success(nil) }
                if !entry.isLeaf {
                    let range = try Self.section(header.tileData, entry, what: "tile \(z)/\(x)/\(y)")
                    let bytes = try await reader.read(range).get()
                    return .success(try Self.inflated(bytes, header.tileCompression, limit: Self.maxTileBytes,
                                                      what: "tile \(z)/\(x)/\(y)"))
                }
                guard depth + 1 < Self.maxDepth else { break }
                let range = try Self.section(header.leafDirectories, entry, what: "a leaf directory")
                if let cached = leaves.get(range.lowerBound) {
                    directory = cached
                } else {
                    guard range.count <= UInt64(Self.maxDirectoryBytes) else {
                        throw PMTilesError.Reason("a leaf directory of \(range.count) bytes")
                    }
                    directory = try Self.directory(try await reader.read(range).get(), header: header)
                    leaves.put(range.lowerBound, directory)
                }
            }
            throw PMTilesError.Reason("leaf directories nest deeper than \(Self.maxDepth - 1) levels")
        } catch let reason as PMTilesError.Reason {
            return .failure(reason)
        } catch {
            return .failure(.init("\(error)"))
        }
    }

    /// The absolute byte range of `entry` inside `section`.
    private static func section(_ section: Range<UInt64>, _ entry: PMTilesDirectory.Entry,
                                what: String) throws(PMTilesError.Reason) -> Range<UInt64> {
        let (start, overflow) = section.lowerBound.addingReportingOverflow(entry.offset)
        guard !overflow, start <= section.upperBound, entry.length <= section.upperBound - start else {
            throw .init("\(what) (\(entry.length) bytes at \(entry.offset)) lies outside its section")
        }
        return start..<start + entry.length
    }

    /// Decodes a directory's bytes as read from the archive.
    private static func directory(_ bytes: Data, header: PMTilesHeader) throws(PMTilesError.Reason) -> PMTilesDirectory {
        try PMTilesDirectory(try inflated(bytes, header.internalCompression, limit: maxDirectoryBytes, what: "a directory"))
    }

    /// `data` inflated as `compression` says (gzip, or nothing), at most `limit` bytes.
    private static func inflated(_ data: Data, _ compression: PMTilesHeader.Compression, limit: Int,
                                 what: String) throws(PMTilesError.Reason) -> Data {
        switch compression {
        case .none:
            return data
        case .gzip, .unknown:
            // An archive that does not say how it is compressed is inflated when it looks gzip'd.
            guard compression == .gzip || Gzip.isCompressed(data) else { return data }
            do {
                return try Gzip.inflate(data, limit: limit)
            } catch {
                throw .init("\(what): \(error)")
            }
        case .brotli, .zstd:
            throw .init("\(what) is \(compression == .brotli ? "Brotli" : "Zstandard")-compressed; only gzip and "
                        + "uncompressed archives are read (convert it with `pmtiles convert`)")
        }
    }
}

/// The leaf directories read most recently, by offset.
private final class LeafDirectories: @unchecked Sendable {
    private let lock = NSLock()
    private var directories: [UInt64: PMTilesDirectory] = [:]
    private var order: [UInt64] = []
    static let capacity = 64

    func get(_ offset: UInt64) -> PMTilesDirectory? {
        lock.withLock { directories[offset] }
    }

    func put(_ offset: UInt64, _ directory: PMTilesDirectory) {
        lock.withLock {
            guard directories[offset] == nil else { return }
            if order.count == Self.capacity { directories[order.removeFirst()] = nil }
            directories[offset] = directory
            order.append(offset)
        }
    }
}
