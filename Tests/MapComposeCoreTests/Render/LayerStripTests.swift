import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// A layer whose tiles are resampled onto the map is read, decoded and drawn a strip of tiles
/// at a time: the map is the one a single mosaic of all its tiles gives (to within the rounding
/// of pixman's fixed-point steps), whatever the layer's opacity, blend, fallback or filter, and
/// a layer on whole pixels stays one block.
@Suite struct LayerStripTests {
    /// Tiles of zooms 2 and 3 whose pixels differ from their neighbours' and from other tiles',
    /// some half transparent; `missing` level-3 tiles left out.
    static func folder(missing: Set<TileCoord> = []) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for z in 2...3 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) where !missing.contains(TileCoord(z: z, x: x, y: y)) {
                    let tile = try RasterImage(width: 256, height: 256) { px, py in
                        RGBA(r: UInt8((px + x * 37) % 256), g: UInt8((py * 3 + y * 53) % 256),
                             b: UInt8((px ^ py) % 256), a: (x + y) % 3 == 0 ? 160 : 255)
                    }
                    try folder.write(try ImageEncoder.png(tile), to: "tiles/\(z)/\(x)/\(y).png")
                }
            }
        }
        return folder
    }

    static let style = """
        background: "#f0e8d8"
        layers:
          - {id: base, source: {type: xyz, path: "tiles/{z}/{x}/{y}.png", minzoom: 3, maxzoom: 3}}
          - {id: half, opacity: 0.5, source: {type: xyz, path: "tiles/{z}/{x}/{y}.png", minzoom: 3, maxzoom: 3}}
          - id: holes
            blend: multiply
            opacity: 0.8
            fallback: {parents: 1, children: 0}
            source: {type: xyz, path: "tiles/{z}/{x}/{y}.png", minzoom: 2, maxzoom: 3}
          - {id: generated, opacity: 0.6, source: {type: checkerboard, colors: ["#ffffff", "#204080"], size: 7}}
        """

    static func render(_ style: MapStyle, zoom: Double, strips: Bool, store: TileStore = TileStore(),
                       lon: Double = 12.3) async throws -> RenderResult {
        let viewport = try Viewport(center: LonLat(lon: lon, lat: 41.9), zoom: zoom, width: 700, height: 900)
        var renderer = MapRenderer(style: style, options: RenderOptions(attribution: false), store: store)
        renderer.drawsInStrips = strips
        return try await renderer.render(viewport)
    }

    /// Pixels of `b` that differ from `a`'s by more than `tolerance` in a channel of their
    /// premultiplied values (where the compositing rounds); with any, the actual, expected and
    /// diff images are written under `name`.
    static func differing(_ a: RasterImage, _ b: RasterImage, tolerance: Int, name: String) throws -> Int {
        let count = a.withPixels { pa, wa in
            b.withPixels { pb, wb in
                var count = 0
                for y in 0..<a.height {
                    for x in 0..<a.width {
                        if Self.channelsDiffer(pa[y * wa + x], pb[y * wb + x], by: tolerance) { count += 1 }
                    }
                }
                return count
            }
        }
        if count > 0 { _ = try GoldenComparison(name: name, threshold: 0, maxDifferingFraction: 0).compare(actual: b, expected: a) }
        return count
    }

    /// True when a channel of premultiplied ARGB words `p` and `q` differs by more than `tolerance`.
    static func channelsDiffer(_ p: UInt32, _ q: UInt32, by tolerance: Int) -> Bool {
        for shift: UInt32 in [0, 8, 16, 24] {
            let a = Int((p >> shift) & 0xFF), b = Int((q >> shift) & 0xFF)
            if abs(a - b) > tolerance { return true }
        }
        return false
    }

    /// Zooms that scale level-3 tiles down (bilinear), down below half (Cairo's box filter:
    /// strips stitched with their neighbours' edges) and up.
    @Test("strips draw what one mosaic draws", arguments: [2.37, 2.81, 1.6, 3.55])
    func stripsMatchOneMosaic(_ zoom: Double) async throws {
        let folder = try Self.folder(missing: [TileCoord(z: 3, x: 4, y: 2), TileCoord(z: 3, x: 4, y: 3), TileCoord(z: 3, x: 5, y: 3)])
        let style = try RenderHelpers.style(Self.style, in: folder)
        let viewport = try Viewport(center: LonLat(lon: 12.3, lat: 41.9), zoom: zoom, width: 700, height: 900)
        let plans = style.layers.map { LayerPlan(layer: $0, viewport: viewport) }
        #expect(plans.allSatisfy { ($0.passes.first?.blocks.count ?? 0) > 1 }, "every layer is cut into strips")
        #expect(plans[0].passes[0].blocks.allSatisfy { $0.ringFromStrips && $0.range.rows.count == 1 })
        let single = try await Self.render(style, zoom: zoom, strips: false)
        let stripped = try await Self.render(style, zoom: zoom, strips: true)
        // Pixman steps through a scaled image in 16.16 fixed point from the start of each span,
        // so an image placed at another origin rounds a bilinear weight differently now and
        // then: a level or two in a channel, where a seam would differ by tens.
        #expect(try Self.differing(single.image, stripped.image, tolerance: 3, name: "layer-strips-z\(zoom)") == 0)
        for (a, b) in zip(single.report.layers, stripped.report.layers) {
            #expect(a.tilesDrawn == b.tilesDrawn && a.tilesFromParents == b.tilesFromParents && a.tilesMissing == b.tilesMissing,
                    "layer \(a.id)")
        }
        if zoom >= 2 { #expect(stripped.report.layers[2].tilesFromParents > 0, "the holes are filled from level 2") }
    }

    /// Tiles kept by the store between renders (views of the slabs their strips were decoded
    /// into) draw the same map again, and nothing is written into them: a third render through
    /// a fresh store agrees pixel for pixel.
    @Test func stripsDrawTheSameFromTilesTheStoreKept() async throws {
        let folder = try Self.folder()
        let style = try RenderHelpers.style(Self.style, in: folder)
        let store = TileStore(memoryBudget: 64 << 20)
        let first = try await Self.render(style, zoom: 2.37, strips: true, store: store)
        let again = try await Self.render(style, zoom: 2.37, strips: true, store: store)
        let fresh = try await Self.render(style, zoom: 2.37, strips: true)
        #expect(store.statistics.memoryHits > 0, "the second render's tiles came from memory")
        #expect(try Self.differing(fresh.image, first.image, tolerance: 0, name: "layer-strips-first") == 0)
        #expect(try Self.differing(fresh.image, again.image, tolerance: 0, name: "layer-strips-again") == 0)
    }

    /// Tiles on whole pixels at their own size are one block (drawn in place, possibly the map
    /// itself); a layer of a single row of tiles has nothing to cut.
    @Test func layersOnWholePixelsOrOneRowHighAreOneBlock() throws {
        let folder = try Self.folder()
        let style = try RenderHelpers.style(Self.style, in: folder)
        let aligned = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 3, width: 512, height: 512)
        #expect(LayerPlan(layer: style.layers[0], viewport: aligned).passes[0].blocks.count == 1)
        // Latitude 20 lies 140 px into tile row 3 at zoom 3: 40 px of map stay within that row.
        let oneRow = try Viewport(center: LonLat(lon: 0, lat: 20), zoom: 3.3, width: 512, height: 40)
        let plan = LayerPlan(layer: style.layers[0], viewport: oneRow)
        #expect(plan.passes[0].blocks.count == 1)
        #expect(plan.passes[0].blocks[0].range.rows.count == 1)
    }

    /// A range wider than a strip may be is cut into blocks of `mosaicSide` as before, whose
    /// rings come from the store: only strips as wide as the range hand their edges to each other.
    @Test func rangesWiderThanOneStripKeepSquareBlocks() throws {
        let folder = try Self.folder()
        let style = try RenderHelpers.style(Self.style, in: folder)
        let viewport = try Viewport(center: LonLat(lon: 12.3, lat: 41.9), zoom: 2.37, width: 700, height: 900)
        let blocks = LayerPlan(layer: style.layers[0], viewport: viewport, mosaicSide: 512, stripWidth: 512)
            .passes[0].blocks
        #expect(blocks.count > 2)
        #expect(blocks.allSatisfy { !$0.ringFromStrips && $0.range.columns.count <= 2 && $0.range.rows.count <= 2 })
        #expect(blocks.contains { $0.range.rows.count == 2 })
    }

    /// A map wider than one block is still drawn in strips as wide as its range: they hand
    /// their edge tiles to each other, so with no tile memory each tile is decoded once (blocks
    /// among others on their row read their rings from the store, decoding the tiles along
    /// their edges again), and the map is the one the blocks give.
    @Test func stripsWiderThanABlockDecodeEachTileOnce() async throws {
        let folder = try Self.folder()
        let style = try RenderHelpers.style("""
            layers:
              - {id: base, source: {type: xyz, path: "tiles/{z}/{x}/{y}.png", minzoom: 3, maxzoom: 3}}
            """, in: folder)
        let viewport = try Viewport(center: LonLat(lon: 12.3, lat: 41.9), zoom: 2.37, width: 700, height: 900)
        let plan = LayerPlan(layer: style.layers[0], viewport: viewport, mosaicSide: 512)
        let tiles = plan.passes[0].blocks.reduce(0) { $0 + $1.tiles.count }
        #expect(plan.passes[0].blocks.count > 2)
        #expect(plan.passes[0].blocks.allSatisfy { $0.ringFromStrips && $0.range.rows.count == 1 && $0.range.columns.count > 2 })
        func render(stripWidth: Int) async throws -> RenderResult {
            var renderer = MapRenderer(style: style, options: RenderOptions(attribution: false),
                                       store: TileStore(memoryBudget: 0))
            renderer.mosaicSide = 512
            renderer.stripWidth = stripWidth
            return try await renderer.render(viewport)
        }
        let strips = try await render(stripWidth: LayerPlan.maxStripWidth), blocks = try await render(stripWidth: 512)
        #expect(strips.report.tilesDecoded == tiles)
        #expect(blocks.report.tilesDecoded > tiles)
        #expect(try Self.differing(blocks.image, strips.image, tolerance: 3, name: "layer-strips-wider-than-a-block") == 0)
    }

    /// Where every tile of several strips is missing, the ancestors standing in for them meet
    /// across the strips' edges as one block's do: blended, with no line where strips meet.
    @Test("stand-ins meet across strips", arguments: [2.37, 2.81])
    func standInsMeetAcrossStrips(_ zoom: Double) async throws {
        let missing = Set((0..<8).flatMap { x in (1...5).map { y in TileCoord(z: 3, x: x, y: y) } })
        let folder = try Self.folder(missing: missing)
        let style = try RenderHelpers.style("""
            layers:
              - {id: holes, fallback: {parents: 1, children: 0}, source: {type: xyz, path: "tiles/{z}/{x}/{y}.png", minzoom: 2, maxzoom: 3}}
            """, in: folder)
        let single = try await Self.render(style, zoom: zoom, strips: false)
        let stripped = try await Self.render(style, zoom: zoom, strips: true)
        #expect(stripped.report.layers[0].tilesFromParents > 8)
        #expect(try Self.differing(single.image, stripped.image, tolerance: 3, name: "layer-strips-stand-ins-z\(zoom)") == 0)
    }
}
