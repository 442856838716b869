import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Reading tiles from ArcGIS caches of every storage format, the folder a style may name, and
/// every kind of damage: each is a tile, a definite miss, or a clear error — never a crash or a
/// read outside a file.
@Suite struct ArcGISTileSourceTests {
    static let red = RGBA(r: 200, g: 10, b: 10)
    static let blue = RGBA(r: 10, g: 10, b: 200)

    static func open(_ folder: URL) throws(ArcGISCacheError) -> ArcGISTileSource {
        try ArcGISTileSource(spec: ArcGISSourceSpec(folder: folder))
    }

    static func outcome(_ source: ArcGISTileSource, z: Int, x: Int, y: Int) async -> TileFetch {
        await source.fetch(TileCoord(z: z, x: x, y: y), pixelRatio: 1)
    }

    static func colour(_ fetch: TileFetch) throws -> RGBA? {
        guard case .found(.encoded(let data)) = fetch.outcome else { return nil }
        return try TileDecoder.decode(data).rgba(x: 3, y: 3)
    }

    static func reason(_ fetch: TileFetch) -> TileMissReason? {
        if case .missing(let reason) = fetch.outcome { return reason }
        return nil
    }

    @Test(arguments: ArcGISStorageFormat.allCases)
    func tilesAreFoundAndAbsentTilesAreDefiniteMisses(_ storage: ArcGISStorageFormat) async throws {
        let folder = try TemporaryFolder()
        let layer = try ArcGISCacheFixtures.writeCache(in: folder, storage: storage, tiles: [
            .init(level: 3, row: 2, column: 5, data: try TileFixtures.solidPNG(Self.red)),
            .init(level: 3, row: 5, column: 2, data: try TileFixtures.solidPNG(Self.blue)),
            .init(level: 4, row: 130, column: 1, data: try TileFixtures.solidPNG(Self.blue)),
        ])
        let source = try Self.open(layer)
        #expect(source.info.nativeZoom == 3...4)
        #expect(try Self.colour(await Self.outcome(source, z: 3, x: 5, y: 2)) == Self.red)
        #expect(try Self.colour(await Self.outcome(source, z: 3, x: 2, y: 5)) == Self.blue)
        #expect(try Self.colour(await Self.outcome(source, z: 4, x: 1, y: 130)) == Self.blue)
        // Another tile of the same bundle, a bundle or folder that does not exist, a level
        // that is not in the LOD set.
        for (z, x, y) in [(3, 2, 2), (3, 200, 2), (2, 0, 0), (4, 1, 2), (9, 0, 0)] {
            #expect(Self.reason(await Self.outcome(source, z: z, x: x, y: y)) == .absent, "\(z)/\(x)/\(y)")
        }
    }

    /// An exploded cache whose conf.xml says `<PacketSize>0</PacketSize>` (as GeoWebCache's
    /// do) loads, and gives the tiles the same cache with 128 gives.
    @Test func anExplodedCacheWithPacketSizeZeroLoads() async throws {
        let folder = try TemporaryFolder()
        let layers = folder.url.appendingPathComponent("Layers")
        try FileManager.default.createDirectory(at: layers, withIntermediateDirectories: true)
        let standard = TestPaths.fixture("ArcGIS/standard/exploded/Layers")
        try FileManager.default.copyItem(at: standard.appendingPathComponent("_alllayers"),
                                         to: layers.appendingPathComponent("_alllayers"))
        try FileManager.default.copyItem(at: TestPaths.fixture("ArcGIS/packet-size-0/conf.xml"),
                                         to: layers.appendingPathComponent("conf.xml"))
        let source = try Self.open(layers)
        #expect(source.info.nativeZoom == 2...5)
        let reference = try Self.open(standard)
        for (z, x, y) in [(3, 2, 2), (3, 5, 3), (4, 8, 5)] {
            let tile = await Self.outcome(source, z: z, x: x, y: y)
            guard case .found(.encoded(let data)) = tile.outcome,
                  case .found(.encoded(let expected)) = await Self.outcome(reference, z: z, x: x, y: y).outcome else {
                Issue.record("tile \(z)/\(x)/\(y) not found")
                continue
            }
            #expect(data == expected)
        }
    }

    @Test func explodedPathsAreHexInEitherCase() async throws {
        // The vector from the design notes: z9 x1234567 y87654321 is L09/R05397fb1/C0012d687.
        let folder = try TemporaryFolder()
        let layer = try ArcGISCacheFixtures.writeCache(in: folder, storage: .exploded, conf: ArcGISCacheFixtures.confXML(
            lods: Array(zip(0..., ArcGISCacheFixtures.webMercatorResolutions(12)))), tiles: [])
        try folder.write(try TileFixtures.solidPNG(Self.red), to: "Layers/_alllayers/L09/R05397fb1/C0012d687.png")
        try folder.write(try TileFixtures.solidPNG(Self.blue), to: "Layers/_alllayers/L10/R0000ABCD/C00000EF1.png")
        let source = try Self.open(layer)
        let lower = await Self.outcome(source, z: 9, x: 1234567, y: 87654321)
        #expect(lower.origin.hasSuffix("L09/R05397fb1/C0012d687.png"))
        #expect(try Self.colour(lower) == Self.red)
        let upper = await Self.outcome(source, z: 10, x: 0xEF1, y: 0xABCD)
        #expect(upper.origin.hasSuffix("L10/R0000ABCD/C00000EF1.png"))
        #expect(try Self.colour(upper) == Self.blue)
    }

    @Test func mixedCachesHoldJPEGAndPNGTiles() async throws {
        let folder = try TemporaryFolder()
        let layer = try ArcGISCacheFixtures.writeCache(in: folder, storage: .exploded,
                                                       conf: ArcGISCacheFixtures.confXML(format: "MIXED"), tiles: [])
        try folder.write(try TileFixtures.solidJPEG(Self.red), to: "Layers/_alllayers/L02/R00000001/C00000001.jpg")
        try folder.write(try TileFixtures.solidPNG(Self.blue), to: "Layers/_alllayers/L02/R00000001/C00000002.png")
        let source = try Self.open(layer)
        let jpeg = try #require(try Self.colour(await Self.outcome(source, z: 2, x: 1, y: 1)))
        #expect(abs(Int(jpeg.r) - 200) < 6 && jpeg.g < 20)
        #expect(try Self.colour(await Self.outcome(source, z: 2, x: 2, y: 1)) == Self.blue)
        #expect(Self.reason(await Self.outcome(source, z: 2, x: 3, y: 1)) == .absent)
    }

    @Test func nonStandardLevelIDsNameTheirFolders() async throws {
        let folder = try TemporaryFolder()
        let conf = ArcGISCacheFixtures.confXML(storage: ArcGISStorageFormat.compactV2.rawValue, tileSize: 512,
                                               origin: (-4e6, 11e6), lods: [(10, 6000), (11, 3700), (12, 2300)])
        let layer = try ArcGISCacheFixtures.writeCache(in: folder, storage: .compactV2, conf: conf, tiles: [
            .init(level: 11, row: 1, column: 1, data: try TileFixtures.solidPNG(Self.red, size: 512)),
        ])
        let source = try Self.open(layer)
        #expect(source.info.nativeZoom == 1...1)
        #expect(source.info.matrix.tileWidth == 512)
        #expect(source.info.matrix.originX == -4e6)
        let fetch = await Self.outcome(source, z: 1, x: 1, y: 1)
        #expect(fetch.origin.contains("L11/R0000C0000.bundle"))
        #expect(try Self.colour(fetch) == Self.red)
    }

    @Test func theCacheFolderAboveOneDataFrameIsAcceptedAndSaid() throws {
        let folder = try TemporaryFolder()
        try ArcGISCacheFixtures.writeCache(in: folder, name: "cache_roads/Layers", storage: .exploded, tiles: [])
        let source = try Self.open(folder.url.appendingPathComponent("cache_roads"))
        #expect(source.folder.layer.lastPathComponent == "Layers")
        #expect(source.info.notes.contains { $0.contains("drawing its one data frame 'Layers'") })
        // Named directly, no note.
        let direct = try Self.open(folder.url.appendingPathComponent("cache_roads/Layers"))
        #expect(direct.info.notes.allSatisfy { !$0.contains("data frame") })
    }

    @Test func twoDataFramesOrNoneAreErrors() throws {
        let folder = try TemporaryFolder()
        try ArcGISCacheFixtures.writeCache(in: folder, name: "cache/Layers", storage: .exploded, tiles: [])
        try ArcGISCacheFixtures.writeCache(in: folder, name: "cache/Roads", storage: .exploded, tiles: [])
        let two = #expect(throws: ArcGISCacheError.self) { try Self.open(folder.url.appendingPathComponent("cache")) }
        #expect(two?.reason.contains("holds 2 data frames (Layers, Roads)") == true)
        try folder.write("x", to: "empty/readme.txt")
        let none = #expect(throws: ArcGISCacheError.self) { try Self.open(folder.url.appendingPathComponent("empty")) }
        #expect(none?.reason.contains("no conf.xml") == true)
        #expect(none?.path == folder.url.appendingPathComponent("empty").path)
    }

    @Test func withoutConfCDITheFullExtentIsUsedAndSaid() throws {
        let folder = try TemporaryFolder()
        let old = try ArcGISCacheFixtures.writeCache(in: folder, name: "old", storage: .exploded, tiles: [])
        let source = try Self.open(old)
        #expect(source.info.bounds == nil)
        #expect(source.info.notes.contains { $0.contains("no conf.cdi") && $0.contains("full extent") })
        let rect = MetersRect(minX: 0, minY: 0, maxX: 1_000_000, maxY: 1_000_000)
        let new = try ArcGISCacheFixtures.writeCache(in: folder, name: "new", storage: .exploded, extent: rect, tiles: [])
        let bounded = try Self.open(new)
        #expect(bounded.info.bounds?.meters.minX.magnitude ?? 1 < 1e-6)
        #expect(bounded.info.notes.isEmpty)
    }

    @Test func badDescriptionsAreErrorsWithTheirPath() throws {
        let folder = try TemporaryFolder()
        let layer = try ArcGISCacheFixtures.writeCache(in: folder, storage: .exploded, conf: "<CacheInfo><oops", tiles: [])
        let malformed = #expect(throws: ArcGISCacheError.self) { try Self.open(layer) }
        #expect(malformed?.path == layer.appendingPathComponent("conf.xml").path)
        #expect(malformed?.reason.contains("malformed XML") == true)
        try folder.write("<EnvelopeN><XMin>a</XMin></EnvelopeN>", to: "Other/conf.cdi")
        try folder.write(ArcGISCacheFixtures.confXML(), to: "Other/conf.xml")
        let cdi = #expect(throws: ArcGISCacheError.self) { try Self.open(folder.url.appendingPathComponent("Other")) }
        #expect(cdi?.path.hasSuffix("Other/conf.cdi") == true)
        let unsupported = try ArcGISCacheFixtures.writeCache(
            in: folder, name: "Fancy", storage: .exploded,
            conf: ArcGISCacheFixtures.confXML(storage: "esriMapCacheStorageModeFancy"), tiles: [])
        let storage = #expect(throws: ArcGISCacheError.self) { try Self.open(unsupported) }
        #expect(storage?.reason.contains("unsupported storage format") == true)
        let missing = #expect(throws: ArcGISCacheError.self) { try Self.open(folder.url.appendingPathComponent("nowhere")) }
        #expect(missing?.reason == "no such folder")
    }
}
