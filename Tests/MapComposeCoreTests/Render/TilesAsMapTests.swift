import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// A map that is one layer's tiles on whole pixels, with nothing else drawn, is a view of the
/// slab they were decoded into: the same pixels as a map drawn from them, with no map image
/// made and nothing copied. Anything drawn besides, or any tile not in the slab, gives a map of
/// its own, drawn as always.
@Suite struct TilesAsMapTests {
    /// Tiles of zoom 2 whose every pixel differs from its neighbours and from the other tiles'.
    static func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for x in 0..<4 {
            for y in 0..<4 {
                let tile = try RasterImage(width: 256, height: 256) { px, py in
                    RGBA(r: UInt8(px), g: UInt8(py), b: UInt8(x * 64 + y * 16), a: 255)
                }
                try folder.write(try ImageEncoder.png(tile), to: "tiles/2/\(x)/\(y).png")
            }
        }
        return folder
    }

    static let layer = "layers:\n  - {id: t, source: {type: xyz, path: \"tiles/{z}/{x}/{y}.png\"}"

    /// 512×512 at zoom 2 around (0, 0) puts the tiles on whole pixels; `lon` off 0 moves them
    /// by a fraction of a pixel.
    /// The map as an encoder gets it: possibly a read-only view of the store's tiles.
    static func render(_ style: MapStyle, lon: Double = 0, lat: Double = 0, width: Int = 512, height: Int = 512,
                       attribution: Bool = false, overlays: [Overlay] = [], store: TileStore = TileStore(),
                       mayViewTiles: Bool = true) async throws -> (image: RasterImage, report: RenderReport) {
        let viewport = try Viewport(center: LonLat(lon: lon, lat: lat), zoom: 2, width: width, height: height)
        var renderer = MapRenderer(style: style, options: RenderOptions(attribution: attribution), store: store,
                                   overlays: overlays)
        renderer.mayViewTiles = mayViewTiles
        let (pixels, report) = try await renderer.renderPixels(viewport, decorated: true)
        #expect(pixels.image.isView == pixels.viewsTiles)
        return (pixels.image, report)
    }

    static func samePixels(_ a: RasterImage, _ b: RasterImage) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        return (0..<a.height).allSatisfy { y in (0..<a.width).allSatisfy { x in a.rgba(x: x, y: y) == b.rgba(x: x, y: y) } }
    }

    @Test func oneLayerOnWholePixelsIsAViewOfItsTilesWithTheSamePixels() async throws {
        let folder = try Self.folder()
        let style = try RenderHelpers.style(Self.layer + "}\n", in: folder)
        let viewed = try await Self.render(style)
        let drawn = try await Self.render(style, mayViewTiles: false)
        #expect(viewed.image.isView, "the map is the slab's pixels")
        #expect(!drawn.image.isView)
        #expect(viewed.image.width == 512 && viewed.image.height == 512)
        #expect(Self.samePixels(viewed.image, drawn.image))
        // The view's top-left pixel is tile (1, 1)'s.
        #expect(viewed.image.rgba(x: 0, y: 0) == RGBA(r: 0, g: 0, b: 80, a: 255))
        #expect(viewed.image.rgba(x: 511, y: 511) == RGBA(r: 255, g: 255, b: 160, a: 255))
        #expect(viewed.report.layers.first?.tilesDrawn == drawn.report.layers.first?.tilesDrawn)
        // Encoded from the view (rows a slab's width apart), the PNG holds the same pixels.
        let decoded = try TileDecoder.decode(try ImageEncoder.png(viewed.image))
        #expect(Self.samePixels(decoded, drawn.image))
    }

    @Test func anythingElseDrawnGivesAMapOfItsOwn() async throws {
        let folder = try Self.folder()
        let plain = try RenderHelpers.style(Self.layer + "}\n", in: folder)
        let marker = Overlay.marker(MarkerOverlay(position: LonLat(lon: 10, lat: 10), label: "x"))
        let cases: [(String, MapStyle, Double, Bool, [Overlay])] = [
            ("a background", try RenderHelpers.style("background: \"#ff0000\"\n" + Self.layer + "}\n", in: folder), 0, false, []),
            ("opacity", try RenderHelpers.style(Self.layer + ", opacity: 0.5}\n", in: folder), 0, false, []),
            ("an attribution", try RenderHelpers.style("attribution: \"test\"\n" + Self.layer + "}\n", in: folder), 0, true, []),
            ("an overlay", plain, 0, false, [marker]),
            ("tiles between pixels", plain, 0.1, false, []),
        ]
        for (name, style, lon, attribution, overlays) in cases {
            let result = try await Self.render(style, lon: lon, attribution: attribution, overlays: overlays)
            let reference = try await Self.render(style, lon: lon, attribution: attribution, overlays: overlays,
                                                  mayViewTiles: false)
            #expect(!result.image.isView, "\(name)")
            #expect(Self.samePixels(result.image, reference.image), "\(name)")
        }
    }

    /// Every fast path engaged (slabs, the map as a view of its tiles, in-place drawing of
    /// tiles on whole pixels, translated bilinear paints), maps rendered twice in a row through
    /// one store are the maps fresh stores give: no render writes into a tile the store holds.
    @Test func rendersThroughOneStoreLeaveItsTilesAsDecoded() async throws {
        let folder = try Self.folder()
        let plain = try RenderHelpers.style(Self.layer + "}\n", in: folder)
        let stacked = try RenderHelpers.style(Self.layer + "}\n  - {id: u, source: {type: xyz, path: \"tiles/{z}/{x}/{y}.png\"}, opacity: 0.4, blend: multiply}\n", in: folder)
        let marker = Overlay.marker(MarkerOverlay(position: LonLat(lon: 5, lat: 5), label: "x"))
        let cases: [(String, MapStyle, Double, Double, [Overlay])] = [
            ("one layer on whole pixels", plain, 0, 0, []),
            ("one layer between pixels", plain, 0.1, -0.1, []),
            ("two layers, opacity and blend", stacked, 0.37, 0.23, []),
            ("an overlay", plain, 0, 0, [marker]),
        ]
        let store = TileStore()
        var decodedAfterFirstRound = 0
        for round in 1...2 {
            for (name, style, lon, lat, overlays) in cases {
                let result = try await Self.render(style, lon: lon, lat: lat, overlays: overlays, store: store)
                let fresh = try await Self.render(style, lon: lon, lat: lat, overlays: overlays, mayViewTiles: false)
                #expect(Self.samePixels(result.image, fresh.image), "\(name), round \(round)")
            }
            if round == 1 { decodedAfterFirstRound = store.statistics.decoded }
        }
        #expect(store.statistics.decoded == decodedAfterFirstRound, "the second round drew from the tiles the store kept")
    }

    /// What `render` hands out is the caller's own: a map that was a view of cached tiles is
    /// copied, so drawing on it leaves the store's tiles as they were.
    @Test func theImageARenderReturnsIsNeverTheStoresTiles() async throws {
        let folder = try Self.folder()
        let style = try RenderHelpers.style(Self.layer + "}\n", in: folder)
        let store = TileStore()
        let viewport = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 2, width: 512, height: 512)
        let renderer = MapRenderer(style: style, options: RenderOptions(attribution: false), store: store)
        let first = try await renderer.render(viewport)
        #expect(!first.image.isView)
        let context = try DrawingContext(first.image)
        context.clear(to: RGBA(r: 255, g: 0, b: 0, a: 255))
        try context.finish("overdraw")
        let again = try await renderer.render(viewport)
        let fresh = try await Self.render(style, mayViewTiles: false)
        #expect(Self.samePixels(again.image, fresh.image))
    }

    /// A store that may serve other maps keeps its tiles as they are: tiles between pixels are
    /// painted onto a map of its own.
    @Test func aSharedStoreNeverResamplesInPlace() async throws {
        let folder = try Self.folder()
        let style = try RenderHelpers.style(Self.layer + "}\n", in: folder)
        let store = TileStore()
        let result = try await Self.render(style, lon: 0.1, lat: -0.1, store: store)
        #expect(!result.image.isView)
        let decodedBefore = store.statistics.decoded
        let again = try await Self.render(style, lon: 0.1, lat: -0.1, store: store, mayViewTiles: false)
        #expect(store.statistics.decoded == decodedBefore, "drawn from the tiles the store kept")
        let reference = try await Self.render(style, lon: 0.1, lat: -0.1, mayViewTiles: false)
        #expect(Self.samePixels(again.image, reference.image), "the tiles are as they were decoded")
        #expect(Self.samePixels(result.image, reference.image))
    }

    @Test func aMissingTileGivesAMapOfItsOwn() async throws {
        let folder = try Self.folder()
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("tiles/2/2/2.png"))
        let style = try RenderHelpers.style(Self.layer + "}\n", in: folder)
        let result = try await Self.render(style)
        let reference = try await Self.render(style, mayViewTiles: false)
        #expect(!result.image.isView)
        #expect(Self.samePixels(result.image, reference.image))
        #expect(result.image.rgba(x: 300, y: 300).a < 255, "the missing tile's place is not the tile's")
    }

    /// The view shares its pixels with the tiles a store keeps for later renders: drawing those
    /// renders changes neither.
    @Test func laterRendersFromTheSameStoreLeaveTheViewAsItWas() async throws {
        let folder = try Self.folder()
        let store = TileStore()
        let plain = try RenderHelpers.style(Self.layer + "}\n", in: folder)
        let viewed = try await Self.render(plain, store: store)
        #expect(viewed.image.isView)
        let before = try ImageEncoder.png(viewed.image)
        let overdrawn = try RenderHelpers.style("background: \"#00ff00\"\nattribution: \"test\"\n" + Self.layer
                                                + ", opacity: 0.5}\n", in: folder)
        let other = try await Self.render(overdrawn, attribution: true, overlays: [
            .marker(MarkerOverlay(position: LonLat(lon: 0, lat: 0), label: "centre"))], store: store)
        #expect(!other.image.isView)
        let again = try await Self.render(plain, store: store)
        #expect(again.image.isView)
        #expect(try ImageEncoder.png(viewed.image) == before)
        #expect(Self.samePixels(again.image, viewed.image))
    }
}
