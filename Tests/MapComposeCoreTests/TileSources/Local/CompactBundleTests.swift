import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Damaged compact bundles: a truncated bundle, a truncated index, an index entry pointing past
/// the end, a missing `.bundlx`. Each tile read is a clear `corrupt` miss naming the file, never
/// a crash or a read outside the file; and one open bundle serves every concurrent read.
@Suite struct CompactBundleTests {
    static let tile = { try! TileFixtures.solidPNG(RGBA(r: 1, g: 2, b: 3)) }()

    /// A one-tile cache (row 2, column 3 of level 1) of `storage` in `folder`, then `damage`
    /// applied to its bundle files.
    static func damagedSource(_ storage: ArcGISStorageFormat, in folder: TemporaryFolder,
                              damage: (_ bundle: URL, _ bundlx: URL) throws -> Void) throws -> ArcGISTileSource {
        let layer = try ArcGISCacheFixtures.writeCache(in: folder, storage: storage, tiles: [
            .init(level: 1, row: 2, column: 3, data: tile),
        ])
        let base = layer.appendingPathComponent("_alllayers/L01/R0000C0000")
        try damage(base.appendingPathExtension("bundle"), base.appendingPathExtension("bundlx"))
        return try ArcGISTileSource(spec: ArcGISSourceSpec(folder: layer))
    }

    static func corruption(_ source: ArcGISTileSource, x: Int = 3, y: Int = 2) async -> String? {
        let fetch = await source.fetch(TileCoord(z: 1, x: x, y: y), pixelRatio: 1)
        if case .missing(.corrupt(let reason)) = fetch.outcome { return reason }
        return nil
    }

    static func truncate(_ url: URL, to size: Int) throws {
        let data = try Data(contentsOf: url)
        try data.prefix(size).write(to: url)
    }

    static func patch(_ url: URL, at offset: Int, _ bytes: [UInt8]) throws {
        var data = try Data(contentsOf: url)
        data.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
        try data.write(to: url)
    }

    @Test(arguments: [ArcGISStorageFormat.compact, .compactV2])
    func aBundleTruncatedMidTileIsCorrupt(_ storage: ArcGISStorageFormat) async throws {
        let folder = try TemporaryFolder()
        let source = try Self.damagedSource(storage, in: folder) { bundle, _ in
            let size = try Data(contentsOf: bundle).count
            try Self.truncate(bundle, to: size - Self.tile.count / 2)
        }
        let reason = try #require(await Self.corruption(source))
        #expect(reason.contains("is truncated"))
        #expect(reason.contains(folder.url.path))
        #expect(reason.contains("R0000C0000.bundle"))
        // The other tiles of the bundle are still plain misses.
        let other = await source.fetch(TileCoord(z: 1, x: 0, y: 0), pixelRatio: 1)
        if case .missing(let why) = other.outcome { #expect(why == .absent) } else { Issue.record("found a tile at 1/0/0") }
    }

    @Test func aV1IndexEntryPointingPastTheEndIsCorrupt() async throws {
        let folder = try TemporaryFolder()
        let source = try Self.damagedSource(.compact, in: folder) { _, bundlx in
            // Entry (col 3 × 128 + row 2) → offset 0xFF_FFFF_FFFF.
            try Self.patch(bundlx, at: 16 + (3 * 128 + 2) * 5, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        }
        let reason = try #require(await Self.corruption(source))
        #expect(reason.contains("points at byte 1099511627775"))
        #expect(reason.contains("past the end"))
    }

    @Test func aV2IndexEntryPointingPastTheEndIsCorrupt() async throws {
        let folder = try TemporaryFolder()
        let source = try Self.damagedSource(.compactV2, in: folder) { bundle, _ in
            // Entry (row 2 × 128 + col 3): offset 2^40 − 16, size 100.
            let entry = UInt64((1 << 40) - 16) | 100 << 40
            try Self.patch(bundle, at: 64 + (2 * 128 + 3) * 8, (0..<8).map { UInt8(truncatingIfNeeded: entry >> (8 * UInt64($0))) })
        }
        let reason = try #require(await Self.corruption(source))
        #expect(reason.contains("points at byte 1099511627760"))
    }

    @Test func aV2EntryWhoseSizeRunsPastTheEndIsCorrupt() async throws {
        let folder = try TemporaryFolder()
        let source = try Self.damagedSource(.compactV2, in: folder) { bundle, _ in
            let size = UInt64(try Data(contentsOf: bundle).count)
            let entry = (size - 10) | 4000 << 40
            try Self.patch(bundle, at: 64 + (2 * 128 + 3) * 8, (0..<8).map { UInt8(truncatingIfNeeded: entry >> (8 * UInt64($0))) })
        }
        #expect(try #require(await Self.corruption(source)).contains("is truncated"))
    }

    @Test func aV1SizePrefixClaimingTooMuchIsCorrupt() async throws {
        let folder = try TemporaryFolder()
        let source = try Self.damagedSource(.compact, in: folder) { bundle, bundlx in
            let index = try Data(contentsOf: bundlx)
            let entry = 16 + (3 * 128 + 2) * 5
            let offset = (0..<5).reduce(0) { $0 | Int(index[entry + $1]) << (8 * $1) }
            try Self.patch(bundle, at: offset, [0xFF, 0xFF, 0xFF, 0x7F])
        }
        #expect(try #require(await Self.corruption(source)).contains("over the 64 MiB tile limit"))
    }

    @Test func truncatedIndexesAreCorrupt() async throws {
        let folder6 = try TemporaryFolder()
        let v1 = try Self.damagedSource(.compact, in: folder6) { _, bundlx in try Self.truncate(bundlx, to: 1000) }
        #expect(try #require(await Self.corruption(v1)).contains("R0000C0000.bundlx is truncated: 1000 bytes"))
        let folder7 = try TemporaryFolder()
        let v2 = try Self.damagedSource(.compactV2, in: folder7) { bundle, _ in try Self.truncate(bundle, to: 40) }
        #expect(try #require(await Self.corruption(v2)).contains("is truncated: 40 bytes"))
        let folder8 = try TemporaryFolder()
        let empty = try Self.damagedSource(.compactV2, in: folder8) { bundle, _ in try Self.truncate(bundle, to: 0) }
        #expect(await Self.corruption(empty) != nil)
    }

    @Test func aV1BundleWithoutItsIndexIsCorrupt() async throws {
        let folder = try TemporaryFolder()
        let source = try Self.damagedSource(.compact, in: folder) { _, bundlx in try FileManager.default.removeItem(at: bundlx) }
        #expect(try #require(await Self.corruption(source)).contains(".bundlx is missing"))
    }

    @Test func aFolderWhereABundleShouldBeIsAReadFailure() async throws {
        let folder = try TemporaryFolder()
        let source = try Self.damagedSource(.compactV2, in: folder) { bundle, _ in
            try FileManager.default.removeItem(at: bundle)
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: false)
        }
        let fetch = await source.fetch(TileCoord(z: 1, x: 3, y: 2), pixelRatio: 1)
        guard case .missing(.readFailed(let reason)) = fetch.outcome else {
            Issue.record("expected a read failure, got \(fetch.outcome)")
            return
        }
        #expect(reason.contains("is a folder"))
    }

    @Test(arguments: [ArcGISStorageFormat.compact, .compactV2])
    func concurrentReadsShareOneOpenBundle(_ storage: ArcGISStorageFormat) async throws {
        let folder = try TemporaryFolder()
        let source = try Self.damagedSource(storage, in: folder) { _, _ in }
        let found = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let fetch = await source.fetch(TileCoord(z: 1, x: index % 2 == 0 ? 3 : 0, y: 2), pixelRatio: 1)
                    if case .found(.encoded(let data)) = fetch.outcome { return data == Self.tile }
                    if case .missing(.absent) = fetch.outcome { return index % 2 == 1 }
                    return false
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(found == 64)
        #expect(source.bundles?.openCount == 1)
    }

    @Test func openBundlesAreBoundedAndEvictedLeastRecentlyUsedFirst() throws {
        let folder = try TemporaryFolder()
        for index in 0..<3 {
            try folder.write(ArcGISCacheFixtures.bundleV2([]), to: "b\(index).bundle")
        }
        let handles = BundleHandles(version: .compactV2, capacity: 2)
        for index in [0, 1, 0, 2] {
            guard case .success(.v2) = handles.bundle(base: folder.url.appendingPathComponent("b\(index)").path) else {
                Issue.record("bundle \(index) did not open")
                return
            }
        }
        #expect(handles.openCount == 2)
    }

    @Test func positionedReadsNeverLeaveTheFile() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write(Data([1, 2, 3, 4, 5]), to: "five")
        guard case .opened(let file) = PositionedFile.open(url.path) else {
            Issue.record("could not open")
            return
        }
        #expect(try file.read(at: 1, count: 3).get() == Data([2, 3, 4]))
        #expect(try file.littleEndian(at: 0, width: 2).get() == 0x0201)
        for (offset, count) in [(4, 2), (5, 1), (6, 0), (UInt64.max, 1), (0, -1)] as [(UInt64, Int)] {
            guard case .failure(.pastEnd) = file.read(at: offset, count: count) else {
                Issue.record("read of \(count) at \(offset) did not fail")
                continue
            }
        }
        #expect(try file.read(at: 5, count: 0).get().isEmpty)
        if case .absent = PositionedFile.open(folder.url.appendingPathComponent("none").path) {} else {
            Issue.record("a missing file is not absent")
        }
    }
}
