import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// The shared tile store: one fetch per tile while in flight, decoded tiles kept within a byte
/// budget, definite misses remembered and transient failures not.
@Suite struct TileStoreTests {
    static let color = RGBA(r: 30, g: 120, b: 200)

    private func folderStyle(_ folder: TemporaryFolder, layers: Int = 1) throws -> MapStyle {
        try RenderHelpers.writeUniformLevel(3, color: Self.color, in: folder)
        let lines = (0..<layers).map { "  - {id: l\($0), opacity: 0.5, source: {type: xyz, path: \"tiles/{z}/{x}/{y}.png\"}}" }
        return try RenderHelpers.style("layers:\n" + lines.joined(separator: "\n") + "\n", in: folder)
    }

    @Test func overlappingRendersThroughOneStoreDecodeEachSharedTileOnce() async throws {
        let folder = try TemporaryFolder()
        let style = try folderStyle(folder)
        let store = TileStore()
        let renderer = MapRenderer(style: style, options: RenderOptions(attribution: false), store: store)
        let west = try Viewport(center: LonLat(lon: -20, lat: 10), zoom: 3, width: 512, height: 512)
        let east = try Viewport(center: LonLat(lon: 20, lat: 10), zoom: 3, width: 512, height: 512)
        async let a = renderer.render(west)
        async let b = renderer.render(east)
        let (first, second) = try await (a, b)
        let grid = TileMatrix.webMercator()
        let tilesA = Set(try #require(grid.covering(west.extent, level: 3)).tiles)
        let tilesB = Set(try #require(grid.covering(east.extent, level: 3)).tiles)
        #expect(!tilesA.isDisjoint(with: tilesB), "the viewports share tiles")
        let distinct = tilesA.union(tilesB).count
        #expect(store.statistics.decoded == distinct)
        #expect(first.report.tilesDecoded + second.report.tilesDecoded == distinct)
        #expect(store.statistics.fetched == distinct)
    }

    @Test func twoLayersNamingTheSameTilesFetchThemOnce() async throws {
        let folder = try TemporaryFolder()
        let style = try folderStyle(folder, layers: 2)
        #expect(style.layers[0].source.info.identity == style.layers[1].source.info.identity)
        let store = TileStore()
        let result = try await MapRenderer(style: style, options: RenderOptions(attribution: false), store: store)
            .render(try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 3, width: 300, height: 300))
        let perLayer = result.report.layers[0].tilesRequested
        #expect(perLayer > 0 && result.report.layers[1].tilesRequested == perLayer)
        #expect(store.statistics.fetched == perLayer)
        #expect(result.report.tilesDecoded == perLayer)
    }

    @Test func decodedTilesStayWithinTheMemoryBudget() async throws {
        let folder = try TemporaryFolder()
        try RenderHelpers.writeUniformLevel(3, color: Self.color, in: folder)
        // Ten folders of different tiles: ten sources, each 256 KiB a tile.
        var lines: [String] = []
        for index in 0..<10 {
            try RenderHelpers.writeUniformLevel(3, color: RGBA(r: UInt8(index * 20), g: 0, b: 0), in: folder, under: "t\(index)")
            lines.append("  - {id: l\(index), opacity: 0.5, source: {type: xyz, path: \"t\(index)/{z}/{x}/{y}.png\"}}")
        }
        let style = try RenderHelpers.style("layers:\n" + lines.joined(separator: "\n") + "\n", in: folder)
        let budget = 2 << 20
        let store = TileStore(memoryBudget: budget)
        let viewport = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 3, width: 512, height: 512)
        _ = try await MapRenderer(style: style, options: RenderOptions(attribution: false), store: store).render(viewport)
        let stats = store.statistics
        let perLayer = try #require(TileMatrix.webMercator().covering(viewport.extent, level: 3)).count
        #expect(stats.decoded == 10 * perLayer, "every tile of ten layers")
        #expect(stats.bytesHeld <= budget)
        #expect(stats.evictions > 0)
    }

    @Test func definiteMissesAreRememberedTransientFailuresAreNot() async throws {
        let folder = try TemporaryFolder()
        try folder.write(Data(), to: "tiles/0/0/0.png")
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("tiles/1/0/0.png"),
                                                withIntermediateDirectories: true)
        let style = try RenderHelpers.style("layers:\n  - {id: t, source: {type: xyz, path: \"tiles/{z}/{x}/{y}.png\"}}\n",
                                            in: folder)
        let source = style.layers[0].source
        let store = TileStore()
        let absent = TileCoord(z: 2, x: 1, y: 1), empty = TileCoord(z: 0, x: 0, y: 0), folderTile = TileCoord(z: 1, x: 0, y: 0)
        for coord in [absent, empty, folderTile] { _ = await store.tile(coord, pixelRatio: 1, from: source) }
        let again = await store.tile(absent, pixelRatio: 1, from: source)
        #expect(again.provenance == .rememberedMiss)
        #expect(await store.tile(empty, pixelRatio: 1, from: source).provenance == .rememberedMiss)
        let unreadable = await store.tile(folderTile, pixelRatio: 1, from: source)
        #expect(unreadable.provenance == .source(decoded: false), "a read error is asked again")
        guard case .missing(.readFailed(let reason)) = unreadable.content else {
            Issue.record("a folder in place of a tile is a read failure")
            return
        }
        #expect(reason == "is a folder, not a tile file")
    }

    @Test func aTileFarLargerThanItsCellIsAMissWithoutDecoding() async throws {
        let folder = try TemporaryFolder()
        try folder.write(TileFixtures.pngHeader(width: 4096, height: 4096), to: "tiles/0/0/0.png")
        let style = try RenderHelpers.style("layers:\n  - {id: t, source: {type: xyz, path: \"tiles/{z}/{x}/{y}.png\"}}\n",
                                            in: folder)
        let store = TileStore()
        let tile = await store.tile(TileCoord(z: 0, x: 0, y: 0), pixelRatio: 1, from: style.layers[0].source)
        guard case .missing(let reason) = tile.content else {
            Issue.record("expected a miss")
            return
        }
        #expect(reason == .wrongSize(width: 4096, height: 4096, expectedWidth: 256, expectedHeight: 256))
        #expect(store.statistics.decoded == 0)
        #expect(reason.description == "tile is 4096x4096 pixels; the grid's tiles are 256x256 (up to 4x that for high-resolution tiles)")
    }
    /// A level-3 folder of tiles in distinct colours (red = column * 30, green = row * 30), one
    /// empty file at 3/0/1 and no file at 3/7/7.
    private func distinctTiles(_ folder: TemporaryFolder) throws -> MapStyle {
        for x in 0..<8 {
            for y in 0..<8 where !(x == 7 && y == 7) {
                let png = x == 0 && y == 1 ? Data() : try TileFixtures.solidPNG(RGBA(r: UInt8(x * 30), g: UInt8(y * 30), b: 9))
                try folder.write(png, to: "tiles/3/\(x)/\(y).png")
            }
        }
        return try RenderHelpers.style("layers:\n  - {id: t, source: {type: xyz, path: \"tiles/{z}/{x}/{y}.png\"}}\n", in: folder)
    }

    @Test func aFolderSourceIsReadTogetherAndAnswersEveryTileAsAloneWould() async throws {
        let folder = try TemporaryFolder()
        let source = try distinctTiles(folder).layers[0].source
        #expect(source.localReader != nil, "a folder of tiles is read on the spot")
        let coords = (0..<8).flatMap { x in (0..<8).map { y in TileCoord(z: 3, x: x, y: y) } }
        let store = TileStore()
        let together = await store.tiles(coords, pixelRatio: 1, from: source)
        #expect(together.count == coords.count)
        #expect(store.statistics.fetched == 64)
        #expect(store.statistics.decoded == 63, "all but the absent file")
        let alone = TileStore()
        for coord in coords {
            let tile = try #require(together[coord])
            let single = await alone.tile(coord, pixelRatio: 1, from: source)
            #expect(tile.provenance == single.provenance)
            #expect(tile.origin == single.origin)
            switch (tile.content, single.content) {
            case (.image(let a), .image(let b)):
                #expect(a.rgba(x: 128, y: 128) == RGBA(r: UInt8(coord.x * 30), g: UInt8(coord.y * 30), b: 9))
                #expect(a.rgba(x: 3, y: 250) == b.rgba(x: 3, y: 250))
            case (.missing(let a), .missing(let b)):
                #expect(a == b)
                #expect(coord == TileCoord(z: 3, x: 7, y: 7) || coord == TileCoord(z: 3, x: 0, y: 1))
            default:
                Issue.record("tile \(coord): together \(tile.content), alone \(single.content)")
            }
        }
        let listedTwice = TileStore()
        let twice = await listedTwice.tiles(coords + coords.reversed(), pixelRatio: 1, from: source)
        #expect(twice.count == 64)
        #expect(listedTwice.statistics.fetched == 64, "a coordinate listed twice is read once")
        let again = await store.tiles(coords, pixelRatio: 1, from: source)
        #expect(again.values.allSatisfy { $0.provenance == .memory || $0.provenance == .rememberedMiss })
        #expect(again.values.count { $0.provenance == .rememberedMiss } == 2)
        #expect(store.statistics.fetched == 64, "nothing read twice")
    }

    @Test func overlappingJobsReadEachTileOnce() async throws {
        let folder = try TemporaryFolder()
        let source = try distinctTiles(folder).layers[0].source
        let left = (0..<5).flatMap { x in (0..<8).map { y in TileCoord(z: 3, x: x, y: y) } }
        let right = (3..<8).flatMap { x in (0..<8).map { y in TileCoord(z: 3, x: x, y: y) } }
        let store = TileStore()
        async let a = store.tiles(left, pixelRatio: 1, from: source)
        async let b = store.tiles(right, pixelRatio: 1, from: source)
        let (first, second) = await (a, b)
        #expect(first.count == left.count && second.count == right.count)
        #expect(store.statistics.fetched == 64, "the 16 shared tiles read once")
        let shared = Set(left).intersection(right)
        for coord in shared {
            let answers = [try #require(first[coord]), try #require(second[coord])]
            #expect(answers.contains { $0.provenance == .source(decoded: true) || $0.provenance == .source(decoded: false) })
        }
    }

    @Test func aSourceWithoutALocalReaderIsAskedOneTileAtATime() async throws {
        let source = SolidTileSource(color: Self.color)
        #expect(source.localReader == nil)
        let coords = [TileCoord(z: 2, x: 0, y: 0), TileCoord(z: 2, x: 3, y: 1), TileCoord(z: 2, x: 1, y: 2)]
        let tiles = await TileStore().tiles(coords, pixelRatio: 1, from: source)
        #expect(Set(tiles.keys) == Set(coords))
        for tile in tiles.values {
            guard case .image(let image) = tile.content else {
                Issue.record("a solid source always answers")
                continue
            }
            #expect(image.rgba(x: 10, y: 10) == Self.color)
        }
    }
}
