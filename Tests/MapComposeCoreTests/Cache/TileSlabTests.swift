import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Tiles of a local source read as a rectangle are decoded straight into one slab, and a mosaic
/// of that rectangle is the slab itself: the same pixels as tiles decoded one by one and
/// stitched, with nothing copied.
@Suite struct TileSlabTests {
    static func color(_ coord: TileCoord) -> RGBA { RGBA(r: UInt8(coord.x * 60), g: UInt8(coord.y * 60), b: 9) }

    /// The tile at (2, 1) is 512 px; (1, 2) holds RGB rows whose compressed data stops halfway;
    /// (3, 0) is absent; (0, 2) is a JPEG and (3, 1) a WebP. All others are 256-px PNG tiles of
    /// `color`.
    static let large = TileCoord(z: 3, x: 2, y: 1), halfData = TileCoord(z: 3, x: 1, y: 2), absent = TileCoord(z: 3, x: 3, y: 0)
    static let jpeg = TileCoord(z: 3, x: 0, y: 2), webp = TileCoord(z: 3, x: 3, y: 1)
    static let coords = (0..<3).flatMap { y in (0..<4).map { x in TileCoord(z: 3, x: x, y: y) } }

    /// A 256-px RGB PNG of red rows, stored uncompressed, cut off after about half its rows
    /// (the end of the file kept), so libpng writes rows before it finds the data short.
    static func pngEndingHalfway() -> Data {
        let row: [UInt8] = [0] + Array(repeating: [UInt8(220), 20, 20], count: 256).joined()
        let stream = HandMadePNG.zlibStored(Array(Array(repeating: row, count: 256).joined()))
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += HandMadePNG.chunk("IHDR", HandMadePNG.bigEndian(256) + HandMadePNG.bigEndian(256) + [8, 2, 0, 0, 0])
        png += HandMadePNG.chunk("IDAT", Array(stream.prefix(stream.count / 2)))
        png += HandMadePNG.chunk("IEND", [])
        return Data(png)
    }

    static func source(in folder: TemporaryFolder) throws -> any TileSource {
        for coord in coords where coord != absent {
            let bytes = switch coord {
            case halfData: pngEndingHalfway()
            case jpeg: try TileFixtures.solidJPEG(color(coord))
            case webp: try ImageEncoder.webp(try TileFixtures.solidImage(color(coord), size: 256), quality: 100, lossless: true)
            default: try TileFixtures.solidPNG(color(coord), size: coord == large ? 512 : 256)
            }
            try folder.write(bytes, to: "tiles/3/\(coord.x)/\(coord.y).png")
        }
        let style = try RenderHelpers.style("layers:\n  - {id: t, source: {type: xyz, path: \"tiles/{z}/{x}/{y}.png\"}}\n",
                                            in: folder)
        return style.layers[0].source
    }

    static func isTransparent(_ image: RasterImage, cellX: Int, cellY: Int) -> Bool {
        [(0, 0), (255, 0), (0, 255), (255, 255), (128, 40), (100, 200)].allSatisfy { x, y in
            image.rgba(x: cellX + x, y: cellY + y).a == 0
        }
    }

    @Test func aRectangleOfLocalTilesIsDecodedIntoTheCellsOfOneSlab() async throws {
        let folder = try TemporaryFolder()
        let store = TileStore()
        let tiles = await store.tiles(Self.coords.reversed(), pixelRatio: 1, from: try Self.source(in: folder))
        let slab = try #require(tiles[TileCoord(z: 3, x: 0, y: 0)]?.content.image?.slabCell?.slab)
        #expect(slab.range == TileRange(level: 3, columns: 0...3, rows: 0...2))
        #expect(slab.image.width == 1024 && slab.image.height == 768)
        #expect(slab.filledCells == 9, "twelve cells, less the large, the short and the absent tile")
        for coord in Self.coords {
            let tile = try #require(tiles[coord])
            let cellX = coord.x * 256, cellY = coord.y * 256
            switch coord {
            case Self.large:
                let image = try #require(tile.content.image)
                #expect(image.width == 512 && image.slabCell == nil, "a tile of another size has an image of its own")
                #expect(image.rgba(x: 511, y: 511) == Self.color(coord))
                #expect(Self.isTransparent(slab.image, cellX: cellX, cellY: cellY))
            case Self.halfData:
                guard case .missing(.undecodable(let error)) = tile.content else {
                    Issue.record("the short tile decoded: \(tile.content)")
                    continue
                }
                #expect(error.description.contains("PNG"))
                #expect(Self.isTransparent(slab.image, cellX: cellX, cellY: cellY),
                        "rows written before the data ran out are cleared")
            case Self.absent:
                #expect(tile.content.image == nil)
                #expect(Self.isTransparent(slab.image, cellX: cellX, cellY: cellY))
            default:
                let image = try #require(tile.content.image)
                let cell = try #require(image.slabCell)
                #expect(cell.slab === slab && cell.x == cellX && cell.y == cellY)
                #expect(image.width == 256 && image.height == 256)
                // JPEG is lossy: its own decode, alone, says what the cell must hold.
                let expected = coord == Self.jpeg ? try TileDecoder.decode(TileFixtures.solidJPEG(Self.color(coord))).rgba(x: 9, y: 9)
                    : Self.color(coord)
                for (x, y) in [(0, 0), (255, 0), (0, 255), (255, 255)] {
                    #expect(image.rgba(x: x, y: y) == expected, "\(coord)")
                    #expect(slab.image.rgba(x: cellX + x, y: cellY + y) == expected, "\(coord): no cell spills into another")
                }
            }
        }
        #expect(store.statistics.bytesHeld == 1024 * 768 * 4 + 512 * 512 * 4,
                "the slab counted once for its nine tiles, the large tile apart")
    }

    /// A slab's memory may hold an earlier image's pixels: each tile decoded into a cell writes
    /// all of it, and the cells left without a tile (absent, undecodable) are cleared when
    /// decoding is done.
    @Test func cellsWithoutATileAreClearedWhateverTheMemoryHeld() throws {
        let range = TileRange(level: 3, columns: 0...2, rows: 0...1)
        let slab = try #require(TileSlab(range: range, cellWidth: 256, cellHeight: 256))
        slab.image.withMutablePixels { pixels, _ in pixels.update(repeating: 0xFF12_3456) }
        let absent = TileCoord(z: 3, x: 1, y: 0), short = TileCoord(z: 3, x: 2, y: 1)
        let stored = try range.tiles.map { coord -> StoredTile in
            guard coord != absent else { return StoredTile(content: .missing(.absent), origin: "", provenance: .source(decoded: false)) }
            let data = coord == short ? Self.pngEndingHalfway() : try TileFixtures.solidPNG(Self.color(coord))
            do throws(TileDecodeError) {
                let image = try TileDecoder.decode(data) { width, height in slab.target(for: coord, width: width, height: height) }
                return StoredTile(content: .image(image), origin: "", provenance: .source(decoded: true))
            } catch {
                return StoredTile(content: .missing(.undecodable(error)), origin: "", provenance: .source(decoded: true))
            }
        }
        let kept = slab.finishDecoding(stored, at: range.tiles)
        #expect(slab.filledCells == 4)
        for (coord, tile) in zip(range.tiles, kept) {
            let cellX = coord.x * 256, cellY = coord.y * 256
            if coord == absent || coord == short {
                #expect(Self.isTransparent(slab.image, cellX: cellX, cellY: cellY), "\(coord)")
            } else {
                #expect(tile.content.image?.slabCell?.slab === slab)
                for (x, y) in [(0, 0), (255, 0), (0, 255), (255, 255), (77, 131)] {
                    #expect(slab.image.rgba(x: cellX + x, y: cellY + y) == Self.color(coord), "\(coord)")
                }
            }
        }
    }

    @Test func tilesThatAreNotARectangleEachGetTheirOwnImage() async throws {
        let folder = try TemporaryFolder()
        let lShape = [TileCoord(z: 3, x: 0, y: 0), TileCoord(z: 3, x: 1, y: 0), TileCoord(z: 3, x: 0, y: 1)]
        let tiles = await TileStore().tiles(lShape, pixelRatio: 1, from: try Self.source(in: folder))
        #expect(tiles.count == 3)
        for coord in lShape {
            let image = try #require(tiles[coord]?.content.image)
            #expect(image.slabCell == nil)
            #expect(image.rgba(x: 200, y: 17) == Self.color(coord))
        }
    }

    @Test func aRectangleWithMoreThanAQuarterOfItsTilesAbsentHasNoSlab() async throws {
        let folder = try TemporaryFolder()
        // A fourth row of absent tiles: 11 of 16 have bytes.
        let rows = (0..<4).flatMap { y in (0..<4).map { x in TileCoord(z: 3, x: x, y: y) } }
        let tiles = await TileStore().tiles(rows, pixelRatio: 1, from: try Self.source(in: folder))
        #expect(tiles.values.compactMap(\.content.image).count == 10)
        #expect(tiles.values.allSatisfy { $0.content.image?.slabCell == nil })
    }

    @Test func aStoreWithoutSlabsGivesEachTileItsOwnImage() async throws {
        let folder = try TemporaryFolder()
        let tiles = await TileStore(slabs: false).tiles(Self.coords, pixelRatio: 1, from: try Self.source(in: folder))
        #expect(tiles.values.compactMap(\.content.image).count == 10)
        #expect(tiles.values.allSatisfy { $0.content.image?.slabCell == nil })
    }

    @Test func aMosaicOfTheSlabsRectangleIsTheSlabAndEqualsOneStitched() async throws {
        let folder = try TemporaryFolder()
        let tiles = await TileStore().tiles(Self.coords, pixelRatio: 1, from: try Self.source(in: folder))
        let range = TileRange(level: 3, columns: 0...3, rows: 0...2)
        let slab = try #require(tiles[TileCoord(z: 3, x: 0, y: 0)]?.content.image?.slabCell?.slab)
        func mosaic(_ coords: [TileCoord], copies: Bool) throws -> TileMosaic {
            try TileMosaic(range: range, coords: coords, cellWidth: 256, cellHeight: 256) { coord in
                guard let image = tiles[coord]?.content.image else { return nil }
                return copies ? try? image.cropped(x: 0, y: 0, width: image.width, height: image.height) : image
            }
        }
        func base(_ image: RasterImage) -> UnsafeRawPointer? { image.withPixels { pixels, _ in UnsafeRawPointer(pixels.baseAddress) } }
        // The large tile has its own image: a mosaic of the other eleven is the slab.
        let inSlab = Self.coords.filter { $0 != Self.large }
        let inPlace = try mosaic(inSlab, copies: false)
        #expect(base(inPlace.image) == base(slab.image), "the mosaic draws on the slab's own pixels")
        let stitched = try mosaic(inSlab, copies: true)
        #expect(base(stitched.image) != base(slab.image))
        #expect(Self.differingPixels(stitched.image, inPlace.image) == 0)
        // With the large tile, or without one of the slab's, the mosaic is stitched.
        let withLarge = try mosaic(Self.coords, copies: false)
        #expect(base(withLarge.image) != base(slab.image))
        #expect(withLarge.image.rgba(x: 600, y: 300) == Self.color(Self.large))
        let partial = try mosaic(inSlab.filter { $0 != TileCoord(z: 3, x: 1, y: 1) }, copies: false)
        #expect(base(partial.image) != base(slab.image))
        #expect(Self.isTransparent(partial.image, cellX: 256, cellY: 256), "the tile left out is not drawn")
        #expect(partial.image.rgba(x: 100, y: 300) == Self.color(TileCoord(z: 3, x: 0, y: 1)))
    }

    /// The same folder drawn from the slab and from tiles read one at a time (a source with no
    /// local reader), at whole pixels and between them.
    @Test func rendersFromASlabEqualRendersFromTilesReadOneByOne() async throws {
        let folder = try TemporaryFolder()
        let source = try Self.source(in: folder)
        let loaded = try RenderHelpers.style("layers:\n  - {id: t, source: {type: xyz, path: \"tiles/{z}/{x}/{y}.png\"}}\n",
                                             in: folder)
        let oneByOne = MapStyle(document: loaded.document,
                                layers: [MapLayer(spec: loaded.layers[0].spec, source: WithoutLocalReader(inner: source))],
                                origin: loaded.origin)
        let grid = TileMatrix.webMercator()
        let corner = grid.tileExtent(level: 3, column: 0, row: 0)
        // Centred on the large tile, and on the tile at (1, 1) a fraction of a pixel off.
        for (center, label) in [(WebMercator.lonLat(fromMetersX: corner.minX + 2 * corner.width, y: corner.maxY - 1.5 * corner.height), "whole pixels"),
                                (LonLat(lon: -127.13, lat: 77.6), "between pixels")] {
            let viewport = try Viewport(center: center, zoom: 3, width: 1000, height: 700)
            let fromSlab = try await MapRenderer(style: loaded, options: RenderOptions(attribution: false)).render(viewport)
            let alone = try await MapRenderer(style: oneByOne, options: RenderOptions(attribution: false)).render(viewport)
            #expect(Self.differingPixels(fromSlab.image, alone.image) == 0, "\(label)")
            #expect(fromSlab.image.rgba(x: 500, y: 350).a == 255, "\(label): tiles drawn")
        }
    }

    /// Pixels whose premultiplied words differ (the images must be the same size).
    static func differingPixels(_ a: RasterImage, _ b: RasterImage) -> Int {
        #expect(a.width == b.width && a.height == b.height)
        return a.withPixels { first, firstRow in
            b.withPixels { second, secondRow in
                (0..<a.height).reduce(0) { count, y in
                    count + (0..<a.width).count { x in first[y * firstRow + x] != second[y * secondRow + x] }
                }
            }
        }
    }

    /// A folder source that must be asked one tile at a time.
    struct WithoutLocalReader: TileSource {
        let inner: any TileSource
        var info: TileSourceInfo { inner.info }
        func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch { await inner.fetch(coord, pixelRatio: pixelRatio) }
    }
}

private extension StoredTile.Content {
    var image: RasterImage? {
        if case .image(let image) = self { image } else { nil }
    }
}
