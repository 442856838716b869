import Foundation

/// Why a PMTiles archive cannot serve tiles.
public struct PMTilesError: Error, Equatable, CustomStringConvertible {
    /// The file or URL.
    public let archive: String
    public let reason: String

    public var description: String { "\(reason) (\(archive))" }
}

/// The fixed 127-byte header of a PMTiles version 3 archive: where its sections lie, how its
/// directories and tiles are compressed, what its tiles are, and its zoom levels and bounds.
public struct PMTilesHeader: Sendable, Equatable {
    /// How a directory or tile is compressed.
    public enum Compression: UInt8, Sendable {
        case unknown = 0, none = 1, gzip = 2, brotli = 3, zstd = 4
    }

    /// What the tiles are.
    public enum TileType: UInt8, Sendable {
        case unknown = 0, mvt = 1, png = 2, jpeg = 3, webp = 4, avif = 5

        public var name: String {
            switch self {
            case .unknown: return "unknown"
            case .mvt: return "vector (MVT)"
            case .png: return "PNG"
            case .jpeg: return "JPEG"
            case .webp: return "WebP"
            case .avif: return "AVIF"
            }
        }
    }

    public static let length = 127

    public var rootDirectory: Range<UInt64>
    public var metadata: Range<UInt64>
    public var leafDirectories: Range<UInt64>
    public var tileData: Range<UInt64>
    public var addressedTiles: UInt64
    public var internalCompression: Compression
    public var tileCompression: Compression
    public var tileType: TileType
    public var minZoom: Int
    public var maxZoom: Int
    /// West, south, east, north in degrees.
    public var bounds: (west: Double, south: Double, east: Double, north: Double)
    public var centerZoom: Int

    public static func == (a: PMTilesHeader, b: PMTilesHeader) -> Bool {
        a.rootDirectory == b.rootDirectory && a.metadata == b.metadata && a.leafDirectories == b.leafDirectories
            && a.tileData == b.tileData && a.tileType == b.tileType && a.minZoom == b.minZoom && a.maxZoom == b.maxZoom
    }

    /// Reads the header from the first 127 bytes of an archive of `archiveSize` bytes (when
    /// known): every section must lie inside the archive.
    public init(_ data: Data, archiveSize: UInt64?) throws(PMTilesError.Reason) {
        guard data.count >= Self.length else { throw .init("shorter than a PMTiles header (\(data.count) bytes)") }
        let bytes = [UInt8](data.prefix(Self.length))
        guard bytes[0..<7].elementsEqual("PMTiles".utf8) else { throw .init("not a PMTiles archive (no 'PMTiles' at its start)") }
        guard bytes[7] == 3 else { throw .init("PMTiles version \(bytes[7]); only version 3 is read") }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * $1) } }
        func i32(_ at: Int) -> Int32 { Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }) }
        func section(_ at: Int, _ name: String) throws(PMTilesError.Reason) -> Range<UInt64> {
            let offset = u64(at), length = u64(at + 8)
            let (end, overflow) = offset.addingReportingOverflow(length)
            guard !overflow, archiveSize.map({ end <= $0 }) ?? true else {
                throw .init("its \(name) (\(length) bytes at \(offset)) lies past the end of the archive")
            }
            return offset..<end
        }
        rootDirectory = try section(8, "root directory")
        metadata = try section(24, "metadata")
        leafDirectories = try section(40, "leaf directories")
        tileData = try section(56, "tile data")
        addressedTiles = u64(72)
        guard let directories = Compression(rawValue: bytes[97]), let tiles = Compression(rawValue: bytes[98]) else {
            throw .init("unknown compression code \(bytes[97]) / \(bytes[98])")
        }
        internalCompression = directories
        tileCompression = tiles
        tileType = TileType(rawValue: bytes[99]) ?? .unknown
        minZoom = Int(bytes[100])
        maxZoom = Int(bytes[101])
        guard minZoom <= maxZoom, maxZoom <= PMTilesTileID.maxZoom else {
            throw .init("zoom levels \(minZoom)…\(maxZoom) are not within 0…\(PMTilesTileID.maxZoom)")
        }
        bounds = (Double(i32(102)) / 1e7, Double(i32(106)) / 1e7, Double(i32(110)) / 1e7, Double(i32(114)) / 1e7)
        centerZoom = Int(bytes[118])
        guard rootDirectory.count > 0 else { throw .init("its root directory is empty") }
    }
}

extension PMTilesError {
    /// What is wrong, before the archive's name is known to the code that found it.
    public struct Reason: Error, Equatable {
        public let text: String
        public init(_ text: String) { self.text = text }
    }

    init(_ archive: String, _ reason: Reason) {
        self.init(archive: archive, reason: reason.text)
    }
}
