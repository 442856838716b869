import CZlib
import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// PMTiles archives written by the format's reference writer (PyPI `pmtiles`, see
/// scripts/fixtures/make_pmtiles.py) read back tile for tile, leaf directories included; damaged
/// ones fail with a message naming what is wrong.
@Suite struct PMTilesArchiveTests {
    static func open(_ name: String) throws -> PMTilesArchive {
        let reader = try PMTilesFileReader.open(TestPaths.fixture("PMTiles/\(name)").path).get()
        return try PMTilesArchive.open(reader).get()
    }

    @Test func tileIDsFollowTheHilbertCurveLevelByLevel() {
        #expect(PMTilesTileID.id(z: 0, x: 0, y: 0) == 0)
        #expect([(0, 0), (0, 1), (1, 1), (1, 0)].map { PMTilesTileID.id(z: 1, x: $0.0, y: $0.1) } == [1, 2, 3, 4])
        #expect(PMTilesTileID.id(z: 2, x: 0, y: 0) == 5)
        #expect(PMTilesTileID.id(z: 31, x: (1 << 31) - 1, y: (1 << 31) - 1) != nil)
        #expect(PMTilesTileID.id(z: 1, x: 2, y: 0) == nil && PMTilesTileID.id(z: 32, x: 0, y: 0) == nil)
    }

    /// 30,000 scattered tiles of level 12: the root points to leaf directories.
    @Test func tilesAreFoundThroughLeafDirectories() async throws {
        let archive = try Self.open("leaves-z12.pmtiles")
        #expect(archive.header.leafDirectories.count > 0, "the fixture has leaf directories")
        let lines = try String(contentsOf: TestPaths.fixture("PMTiles/leaves-z12.txt"), encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: " ").map { Int($0)! } }
        #expect(lines.count == 800)
        for line in lines {
            let (x, y, held) = (line[0], line[1], line[2] == 1)
            let tile = try await archive.tile(z: 12, x: x, y: y).get()
            #expect(tile == (held ? Data("12/\(x)/\(y)".utf8) : nil), "12/\(x)/\(y)")
        }
        #expect(try await archive.tile(z: 11, x: 0, y: 0).get() == nil, "outside the archive's levels")
    }

    @Test func theHeaderAndMetadataAreRead() throws {
        let archive = try Self.open("reference-z0-2.pmtiles")
        #expect(archive.header.tileType == .png && archive.header.minZoom == 0 && archive.header.maxZoom == 2)
        #expect(archive.metadataText("attribution") == "Natural Earth (public domain), drawn by MapServer")
        #expect(abs(archive.header.bounds.north - 85.0511287) < 1e-6)
    }

    // MARK: damaged archives

    static func fixtureBytes() throws -> Data {
        try Data(contentsOf: TestPaths.fixture("PMTiles/reference-z0-2.pmtiles"))
    }

    static func reason(_ data: Data) throws -> String {
        let folder = try TemporaryFolder()
        let file = try folder.write(data, to: "damaged.pmtiles")
        let reader = try PMTilesFileReader.open(file.path).get()
        switch PMTilesArchive.open(reader) {
        case .success: return "opened"
        case .failure(let error): return error.reason
        }
    }

    /// Little-endian bytes of `value`.
    static func u64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    static func varints(_ values: [UInt64]) -> [UInt8] {
        values.flatMap { value -> [UInt8] in
            var bytes: [UInt8] = [], rest = value
            repeat {
                bytes.append(UInt8(rest & 0x7F) | (rest >= 0x80 ? 0x80 : 0))
                rest >>= 7
            } while rest > 0
            return bytes
        }
    }

    static func zlib(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(compressBound(uLong(bytes.count))))
        var length = uLongf(out.count)
        _ = compress(&out, &length, bytes, uLong(bytes.count))
        return Array(out.prefix(Int(length)))
    }

    /// A minimal archive: the header, then `root` as the root directory, then `leaves` as the
    /// leaf directories, then `tiles`.
    static func archive(root: [UInt8], metadata: [UInt8] = [], leaves: [UInt8] = [], tiles: [UInt8] = [],
                        tileType: UInt8 = 2) -> Data {
        var header = Array("PMTiles".utf8) + [3]
        let rootStart = UInt64(127), metadataStart = rootStart + UInt64(root.count)
        let leafStart = metadataStart + UInt64(metadata.count), tileStart = leafStart + UInt64(leaves.count)
        header += u64(rootStart) + u64(UInt64(root.count)) + u64(metadataStart) + u64(UInt64(metadata.count))
        header += u64(leafStart) + u64(UInt64(leaves.count)) + u64(tileStart) + u64(UInt64(tiles.count))
        header += u64(1) + u64(1) + u64(1)
        header += [1, 2, 1, tileType, 0, 3]
        header += [UInt8](repeating: 0, count: 127 - header.count)
        return Data(header + root + metadata + leaves + tiles)
    }

    @Test func metadataThatIsNotAJSONObjectIsRefused() throws {
        let root = Self.zlib(Self.varints([1, 0, 1, 10, 1]))
        func reason(_ metadata: String) throws -> String { try Self.reason(Self.archive(root: root, metadata: Self.zlib(Array(metadata.utf8)))) }
        #expect(try reason("[1, 2]") == "its metadata is not a JSON object")
        #expect(try reason("{\"name\": ").hasPrefix("its metadata is not JSON ("))
        // Nesting beyond what any archive writes is refused before it is walked.
        #expect(try reason("{\"a\": " + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}")
                    .hasPrefix("its metadata is not JSON ("))
        let folder = try TemporaryFolder()
        let data = Self.archive(root: root, metadata: Self.zlib(Array(#"{"attribution": "© someone", "name": "n"}"#.utf8)))
        let reader = try PMTilesFileReader.open(try folder.write(data, to: "m.pmtiles").path).get()
        let archive = try PMTilesArchive.open(reader).get()
        #expect(archive.metadataText("attribution") == "© someone" && archive.metadataText("missing") == nil)
    }

    @Test func damagedArchivesAreRefusedWithTheReason() throws {
        var bytes = try Self.fixtureBytes()
        bytes[0] = UInt8(ascii: "X")
        #expect(try Self.reason(bytes) == "not a PMTiles archive (no 'PMTiles' at its start)")
        bytes = try Self.fixtureBytes()
        bytes[7] = 2
        #expect(try Self.reason(bytes) == "PMTiles version 2; only version 3 is read")
        bytes = try Self.fixtureBytes()
        #expect(try Self.reason(bytes.prefix(100)) == "shorter than a PMTiles header (100 bytes)")
        #expect(try Self.reason(bytes.prefix(2000)).contains("lies past the end of the archive"))
        // A root directory that is not gzip.
        #expect(try Self.reason(Self.archive(root: [0x1F, 0x8B, 1, 2, 3, 4])).hasPrefix("a directory: "))
        // A directory claiming far more entries than its bytes hold.
        #expect(try Self.reason(Self.archive(root: Self.zlib(Self.varints([3_000_000, 1])))).contains("the directory ends inside"))
        #expect(try Self.reason(Self.archive(root: Self.zlib(Self.varints([UInt64(1) << 40])))) == "a directory claims 1099511627776 entries")
        // A run of 0x80 bytes: a varint longer than 64 bits.
        #expect(try Self.reason(Self.archive(root: Self.zlib([UInt8](repeating: 0x80, count: 20)))).contains("runs past 64 bits"))
    }

    @Test func aDirectoryThatInflatesPastItsLimitIsRefused() throws {
        // 20 MB of zeros compress to about 20 KB: over the 16 MB directory limit once inflated.
        let bomb = Self.zlib([UInt8](repeating: 0, count: 20 << 20))
        #expect(bomb.count < 100_000)
        #expect(try Self.reason(Self.archive(root: bomb)) == "a directory: inflates to more than 16777216 bytes")
    }

    @Test func aLeafThatPointsAtItselfStopsAtTheDepthLimit() async throws {
        // One entry: tile IDs from 0 are in the leaf directory at offset 0 (written 1), whose
        // length is this directory's own compressed length: the leaf is this same directory.
        var looping = Self.zlib(Self.varints([1, 0, 0, 10, 1]))
        while true {
            let next = Self.zlib(Self.varints([1, 0, 0, UInt64(looping.count), 1]))
            if next.count == looping.count { looping = next; break }
            looping = next
        }
        let data = Self.archive(root: looping, leaves: looping)
        let folder = try TemporaryFolder()
        let reader = try PMTilesFileReader.open(try folder.write(data, to: "loop.pmtiles").path).get()
        let archive = try PMTilesArchive.open(reader).get()
        let result = await archive.tile(z: 0, x: 0, y: 0)
        #expect(throws: PMTilesError.Reason("leaf directories nest deeper than 3 levels")) { try result.get() }
    }

    @Test func aTileEntryOutsideTheTileSectionIsAnError() async throws {
        // Tile 0 claims 1000 bytes at offset 0 of a 10-byte tile section.
        let root = Self.zlib(Self.varints([1, 0, 1, 1000, 1]))
        let folder = try TemporaryFolder()
        let reader = try PMTilesFileReader.open(try folder.write(Self.archive(root: root, tiles: [UInt8](repeating: 7, count: 10)),
                                                                to: "short.pmtiles").path).get()
        let archive = try PMTilesArchive.open(reader).get()
        let result = await archive.tile(z: 0, x: 0, y: 0)
        #expect(throws: PMTilesError.Reason("tile 0/0/0 (1000 bytes at 0) lies outside its section")) { try result.get() }
    }
}
