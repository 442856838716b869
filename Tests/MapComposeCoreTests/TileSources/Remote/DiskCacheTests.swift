import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// The disk cache's files: whole entries only, least recently used evicted past the cap,
/// descriptions that name layers, torn files dropped.
@Suite struct DiskCacheTests {
    private func space(_ folder: TemporaryFolder, maxBytes: Int = 1 << 30) -> CacheSpace {
        DiskTileCache(root: folder.url).space(for: CacheDescription(id: "layer-1", layer: "layer", source: "xyz-url:x", maxBytes: maxBytes))
    }

    private func entry(_ bytes: Int, status: Int = 200) -> CacheEntry {
        CacheEntry(metadata: .init(status: status, expires: 1e10, etag: "\"e\"", lastModified: nil, contentType: "image/png"),
                   body: Data(repeating: 7, count: bytes))
    }

    @Test func entriesRoundTripAndTornFilesAreDropped() throws {
        let folder = try TemporaryFolder()
        let space = space(folder)
        space.write("3/1/2", entry(100))
        #expect(space.readNow("3/1/2") == entry(100))
        let file = space.fileURL("3/1/2")
        let whole = try Data(contentsOf: file)
        try whole.prefix(10).write(to: file)
        #expect(space.readNow("3/1/2") == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path), "a torn entry is removed")
        try Data("not a cache entry".utf8).write(to: file)
        #expect(space.readNow("3/1/2") == nil)
        #expect(space.readNow("9/9/9") == nil)
    }

    @Test func writesLeaveNoTemporaryFilesAndTheDescriptionNamesTheLayer() throws {
        let folder = try TemporaryFolder()
        let space = space(folder)
        for i in 0..<20 { space.write("5/\(i)/0", entry(10)) }
        let usage = CacheMaintenance.usage(of: space.folder)
        #expect(usage.entries == 20 && usage.leftovers == 0 && usage.bytes > 20 * 10)
        let descriptions = DiskTileCache(root: folder.url).descriptions()
        #expect(descriptions == [CacheDescription(id: "layer-1", layer: "layer", source: "xyz-url:x", maxBytes: 1 << 30)])
    }

    @Test func evictionRemovesTheLeastRecentlyUsedFirst() throws {
        let folder = try TemporaryFolder()
        let space = space(folder)
        let now = Date()
        for i in 0..<10 {
            space.write("4/\(i)/0", entry(1000))
            // Entry 0 was used longest ago, entry 9 most recently.
            try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(Double(i - 10) * 600)],
                                                  ofItemAtPath: space.fileURL("4/\(i)/0").path)
        }
        _ = space.readNow("4/0/0")  // used just now: refreshed
        let entrySize = CacheMaintenance.usage(of: space.folder).bytes / 10
        let removed = CacheMaintenance.evict(space.folder, toFit: entrySize * 6)
        #expect(removed == 5, "down to 90 % of the cap: 5 entries of 10 stay")
        #expect(space.readNow("4/0/0") != nil, "the entry read most recently stays")
        #expect(space.readNow("4/1/0") == nil && space.readNow("4/5/0") == nil)
        #expect(space.readNow("4/6/0") != nil && space.readNow("4/9/0") != nil)
        #expect(CacheMaintenance.evict(space.folder, toFit: entrySize * 6) == 0)
    }

    @Test func theSizeCapIsKeptWhileWriting() throws {
        let folder = try TemporaryFolder()
        let space = space(folder, maxBytes: 2 << 20)
        for i in 0..<80 { space.write("6/\(i)/0", entry(64 << 10)) }
        #expect(CacheMaintenance.usage(of: space.folder).bytes <= (2 << 20) + (1 << 20) + (64 << 10) * 2,
                "checked every 1 MiB written")
    }

    @Test func leftoverTemporaryFilesOfDeadWritersArePruned() throws {
        let folder = try TemporaryFolder()
        let space = space(folder)
        space.write("1/0/0", entry(10))
        let leftover = try folder.write(Data([1, 2, 3]), to: "layer-1/1/0/.0.tile.999.123.tmp")
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: leftover.path)
        #expect(CacheMaintenance.usage(of: space.folder).leftovers == 1)
        CacheMaintenance.evict(space.folder, toFit: 1 << 30)
        #expect(CacheMaintenance.usage(of: space.folder) == .init(entries: 1, bytes: CacheMaintenance.usage(of: space.folder).bytes, leftovers: 0))
    }

    @Test func derivedFolderNamesAreSafeAndDifferPerDefinition() {
        let a = CacheDescription.derivedID(layer: "osm/base ../x", identity: "xyz-url:https://a/{z}/{x}/{y}.png")
        let b = CacheDescription.derivedID(layer: "osm/base ../x", identity: "xyz-url:https://b/{z}/{x}/{y}.png")
        #expect(a != b && CacheDescription.isValidID(a) && !a.contains("/") && !a.contains(".."))
        #expect(!CacheDescription.isValidID("../etc") && !CacheDescription.isValidID(".hidden") && !CacheDescription.isValidID(""))
    }
}
