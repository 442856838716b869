import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Archives written by `PMTilesWriter` read back through the PMTiles reader tile for tile, leaf
/// directories included, with identical tiles stored once and runs of them in one entry.
@Suite struct PMTilesWriterTests {
    static func open(_ url: URL) throws -> PMTilesArchive {
        try PMTilesArchive.open(try PMTilesFileReader.open(url.path).get()).get()
    }

    /// Little-endian integer of `width` bytes at `offset` of the file's header.
    static func headerField(_ url: URL, _ offset: Int, width: Int) throws -> UInt64 {
        let bytes = [UInt8](try Data(contentsOf: url).prefix(PMTilesHeader.length))
        return bytes[offset..<offset + width].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// A small generator with a fixed seed, so the large archive is the same every run.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state ^ (state >> 29)
        }
    }

    @Test func aSmallArchiveReadsBackFromTilesAddedOnSeveralThreads() async throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("small.pmtiles")
        let writer = try PMTilesWriter(url: url, tileType: .mvt, tileCompression: .gzip)
        let tiles = (0...2).flatMap { z in
            (0..<(1 << z)).flatMap { x in (0..<(1 << z)).map { y in (z: z, x: x, y: y) } }
        }.filter { ($0.z, $0.x, $0.y) != (2, 3, 1) }
        // Level 2's tiles are one content but for one; the others differ.
        let content: @Sendable (Int, Int, Int) -> String = { z, x, y in z == 2 && (x, y) != (0, 0) ? "sea" : "\(z)/\(x)/\(y)" }
        let errors = ErrorBox()
        DispatchQueue.concurrentPerform(iterations: tiles.count) { index in
            let (z, x, y) = tiles[tiles.count - 1 - index]
            do {
                try writer.add(z: z, x: x, y: y, data: Gzip.compress(Array(content(z, x, y).utf8)))
            } catch {
                errors.record(error)
            }
        }
        #expect(errors.all.isEmpty)
        try writer.finish(metadata: ["name": "Small", "attribution": "test data"], minZoom: 0, maxZoom: 2,
                          bounds: (-180, -85.0511287, 180, 85.0511287), center: (2.35, 48.85, 1))
        #expect(FileManager.default.fileExists(atPath: url.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["small.pmtiles"], "no temporary file left")

        let archive = try Self.open(url)
        #expect(archive.header.tileType == .mvt && archive.header.tileCompression == .gzip)
        #expect(archive.header.internalCompression == .gzip)
        #expect(archive.header.minZoom == 0 && archive.header.maxZoom == 2 && archive.header.centerZoom == 1)
        #expect(archive.header.bounds.west == -180 && archive.header.bounds.east == 180)
        #expect(abs(archive.header.bounds.north - 85.0511287) < 1e-7 && abs(archive.header.bounds.south + 85.0511287) < 1e-7)
        #expect(archive.header.leafDirectories.isEmpty)
        #expect(archive.metadataText("name") == "Small" && archive.metadataText("attribution") == "test data")
        for (z, x, y) in tiles {
            #expect(try await archive.tile(z: z, x: x, y: y).get() == Data(content(z, x, y).utf8), "\(z)/\(x)/\(y)")
        }
        #expect(try await archive.tile(z: 2, x: 3, y: 1).get() == nil, "a tile never added")
        #expect(try await archive.tile(z: 3, x: 0, y: 0).get() == nil, "a level past the archive's")
        // 20 tiles addressed; 1 + 4 + 1 distinct contents (z2 all "sea" but 2/0/0); clustered.
        #expect(try Self.headerField(url, 72, width: 8) == 20)
        #expect(try Self.headerField(url, 88, width: 8) == 7)
        #expect(try Self.headerField(url, 80, width: 8) < 20, "runs of the sea tile share entries")
        #expect(try Self.headerField(url, 96, width: 1) == 1)
        #expect(Int32(truncatingIfNeeded: try Self.headerField(url, 119, width: 4)) == 23_500_000)
        #expect(Int32(truncatingIfNeeded: try Self.headerField(url, 123, width: 4)) == 488_500_000)
    }

    /// 40,000 tiles of level 8, most of them one content (in runs along the Hilbert curve, broken
    /// by scattered distinct tiles): too many entries for the root, so leaves hold them.
    @Test func aLargeArchiveUsesLeafDirectoriesAndStoresEachContentOnce() async throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("large.pmtiles")
        let writer = try PMTilesWriter(url: url, tileType: .png, tileCompression: .none)
        var generator = SeededGenerator(state: 42)
        var expected: [SIMD2<Int>: [UInt8]] = [:]
        let sea = [UInt8](repeating: 0x5E, count: 300), land = [UInt8](repeating: 0x1A, count: 200)
        for x in 0..<200 {
            for y in 0..<200 {
                let roll = Int.random(in: 0..<100, using: &generator)
                let data = roll < 20 ? [UInt8]("distinct \(x)/\(y) \(roll)".utf8) : roll < 30 ? land : sea
                expected[SIMD2(x, y)] = data
            }
        }
        for (key, data) in expected.shuffled(using: &generator) { try writer.add(z: 8, x: key.x, y: key.y, data: data) }
        try writer.finish(metadata: [:], minZoom: 8, maxZoom: 8, bounds: (-180, -60, 100, 85), center: (0, 0, 8))

        let archive = try Self.open(url)
        #expect(archive.header.leafDirectories.count > 0, "the root points to leaf directories")
        #expect(archive.header.rootDirectory.upperBound <= 16_384)
        let distinct = expected.values.filter { $0 != sea && $0 != land }.count
        #expect(try Self.headerField(url, 72, width: 8) == 40_000)
        #expect(try Self.headerField(url, 88, width: 8) == UInt64(distinct + 2))
        #expect(archive.header.tileData.count == UInt64(expected.values.filter { $0 != sea && $0 != land }.reduce(0) { $0 + $1.count } + 500))
        #expect(try Self.headerField(url, 80, width: 8) < 40_000)
        var wrong = 0
        for (key, data) in expected where try await archive.tile(z: 8, x: key.x, y: key.y).get() != Data(data) {
            wrong += 1
        }
        #expect(wrong == 0)
        #expect(try await archive.tile(z: 8, x: 200, y: 0).get() == nil)
        #expect(try await archive.tile(z: 8, x: 255, y: 255).get() == nil)
        #expect(try await archive.tile(z: 7, x: 0, y: 0).get() == nil)
    }

    @Test func directoriesDecodeAsWrittenAndSplitIntoLeaves() throws {
        typealias Entry = PMTilesDirectory.Entry
        var entries: [Entry] = []
        var offset: UInt64 = 0
        for id in stride(from: UInt64(3), to: 30_000, by: 3) {
            // Every fifth entry points back at the first content; the others follow on.
            if id % 5 == 0 {
                entries.append(Entry(tileID: id, offset: 0, length: 10, runLength: 2))
            } else {
                entries.append(Entry(tileID: id, offset: offset, length: id % 97 + 1, runLength: 1))
                offset += id % 97 + 1
            }
        }
        let whole = PMTilesDirectory.encoded(entries[...])
        #expect(try PMTilesDirectory(Gzip.inflate(Data(whole), limit: 1 << 24)).entries == entries)
        let (root, leaves) = PMTilesDirectory.rootAndLeaves(entries, maxRootBytes: 100)
        let pointers = try PMTilesDirectory(Gzip.inflate(Data(root), limit: 1 << 24)).entries
        #expect(pointers.count > 1 && pointers.allSatisfy(\.isLeaf))
        var read: [Entry] = []
        for pointer in pointers {
            let bytes = Data(leaves[Int(pointer.offset)..<Int(pointer.offset + pointer.length)])
            let leaf = try PMTilesDirectory(Gzip.inflate(bytes, limit: 1 << 24)).entries
            #expect(leaf.first?.tileID == pointer.tileID)
            read += leaf
        }
        #expect(read == entries)
    }

    @Test func mistakesAreRefusedNamingTheArchive() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("mistakes.pmtiles")
        let writer = try PMTilesWriter(url: url, tileType: .png, tileCompression: .none)
        try writer.add(z: 1, x: 1, y: 0, data: [1, 2, 3])
        #expect(throws: OutputError(path: url.path, reason: "tile 1/1/0 added twice")) {
            try writer.add(z: 1, x: 1, y: 0, data: [4])
        }
        #expect(throws: OutputError(path: url.path, reason: "tile 1/2/0 is not a tile of a level 0…31")) {
            try writer.add(z: 1, x: 2, y: 0, data: [4])
        }
        #expect(throws: OutputError(path: url.path, reason: "zoom levels 3…1 (center 0) are not within 0…31")) {
            try writer.finish(metadata: [:], minZoom: 3, maxZoom: 1, bounds: (0, 0, 1, 1), center: (0, 0, 0))
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "no temporary file left")
        #expect(throws: OutputError.self) { try writer.add(z: 0, x: 0, y: 0, data: [1]) }

        let missing = folder.url.appendingPathComponent("no-such-folder/a.pmtiles")
        #expect { try PMTilesWriter(url: missing, tileType: .png, tileCompression: .none) } throws: { error in
            "\(error)".contains(missing.path) && "\(error)".contains("does not exist")
        }
    }
}

/// Errors thrown on several threads, kept for the test to look at.
private final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [any Error] = []

    func record(_ error: any Error) { lock.withLock { errors.append(error) } }
    var all: [any Error] { lock.withLock { errors } }
}
