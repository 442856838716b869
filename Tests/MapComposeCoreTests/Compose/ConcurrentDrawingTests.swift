import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Large paints and mosaics drawn on all cores, in bands of rows, give the pixels one paint on
/// one thread gives.
@Suite struct ConcurrentDrawingTests {
    /// A reproducible pattern of colours, part of it translucent, so that every pixel of a
    /// resampled paint depends on its neighbours.
    static func noise(width: Int, height: Int, seed: UInt32, translucent: Bool = true) throws -> RasterImage {
        try RasterImage(width: width, height: height) { x, y in
            var h = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663) ^ seed
            h = (h ^ (h >> 13)) &* 1_274_126_177
            let alpha: UInt8 = translucent && h & 0x300 == 0 ? UInt8(truncatingIfNeeded: h >> 24) : 255
            return RGBA(r: UInt8(truncatingIfNeeded: h), g: UInt8(truncatingIfNeeded: h >> 8),
                        b: UInt8(truncatingIfNeeded: h >> 16), a: alpha)
        }
    }

    /// Pixels of `a` and `b` differing by more than `tolerance` in a channel; on any, writes
    /// both and their difference under Output/test-results/`name`.
    static func differing(_ a: RasterImage, _ b: RasterImage, tolerance: Int, name: String) throws -> Int {
        var count = 0
        for y in 0..<a.height {
            for x in 0..<a.width where !RenderHelpers.close(a.rgba(x: x, y: y), b.rgba(x: x, y: y), within: tolerance) {
                count += 1
            }
        }
        if count > 0 { _ = try GoldenComparison(name: name, threshold: 0, maxDifferingFraction: 0).compare(actual: b, expected: a) }
        return count
    }

    /// Paints `source` onto a copy of the same background, once on one thread and once in bands
    /// (which must be used), inside the whole-pixel clip `clip`.
    private func paintBothWays(_ source: RasterImage, x: Double, y: Double, scale: Double, alpha: Double = 1,
                               clip: (Double, Double, Double, Double)) throws -> (one: RasterImage, banded: RasterImage) {
        let one = try Self.noise(width: 900, height: 700, seed: 7, translucent: false)
        let banded = try Self.noise(width: 900, height: 700, seed: 7, translucent: false)
        for (image, concurrently) in [(one, false), (banded, true)] {
            let context = try DrawingContext(image)
            context.drawsConcurrently = concurrently
            context.rectangle(clip.0, clip.1, clip.2, clip.3)
            context.clip()
            if concurrently {
                #expect(context.drawInBands(source, x: x, y: y, scale: scale, alpha: alpha, padEdges: true, resampling: .bilinear))
            } else {
                context.draw(source, x: x, y: y, scale: scale, alpha: alpha, padEdges: true)
            }
            try context.finish("test paint")
        }
        return (one, banded)
    }

    /// A map's background set in bands of rows is the background set at once, inside the clip
    /// and not outside it; a small or unclipped-by-pixels target is set at once.
    @Test(arguments: [RGBA(r: 242, g: 239, b: 233), RGBA(r: 30, g: 90, b: 200, a: 77)])
    func clearInBandsEqualsOneClear(_ color: RGBA) throws {
        let one = try Self.noise(width: 900, height: 700, seed: 3)
        let banded = try Self.noise(width: 900, height: 700, seed: 3)
        for (image, concurrently) in [(one, false), (banded, true)] {
            let context = try DrawingContext(image)
            context.drawsConcurrently = concurrently
            context.rectangle(17, 33, 800, 611)
            context.clip()
            #expect(context.clearInBands(to: color) == concurrently)
            try context.finish("test clear")
        }
        #expect(try Self.differing(one, banded, tolerance: 0, name: "banded-clear-\(color)") == 0)
        let untouched = try Self.noise(width: 900, height: 700, seed: 3)
        let smallImage = try RasterImage(width: 64, height: 64)
        let small = try DrawingContext(smallImage)
        small.drawsConcurrently = true
        #expect(!small.clearInBands(to: color))
        try small.finish("test clear")
        let cleared = smallImage.rgba(x: 0, y: 0)
        #expect(banded.rgba(x: 17, y: 33) == cleared && banded.rgba(x: 816, y: 643) == cleared)
        #expect(banded.rgba(x: 16, y: 33) == untouched.rgba(x: 16, y: 33))
        #expect(banded.rgba(x: 817, y: 644) == untouched.rgba(x: 817, y: 644))
    }

    /// At the map's own resolution (a sub-pixel shift only) the pixels are the same.
    @Test("a shifted paint in bands equals one paint", arguments: [(0.37, 0.81), (-13.25, 7.5), (101.0, -64.999)])
    func shiftedPaint(_ offset: (Double, Double)) throws {
        let source = try Self.noise(width: 700, height: 520, seed: 1)
        let (one, banded) = try paintBothWays(source, x: offset.0, y: offset.1, scale: 1, clip: (10, 20, 850, 640))
        #expect(try Self.differing(one, banded, tolerance: 0, name: "banded-paint-shift-\(offset.0)") == 0)
    }

    /// Scaled, pixman steps through the image from the first row of each band, which may round
    /// a bilinear weight differently now and then (as between blocks, see TileMosaicTests).
    @Test("a scaled paint in bands is within three levels of one paint", arguments: [1.37, 0.71, 2.5])
    func scaledPaint(_ scale: Double) throws {
        let source = try Self.noise(width: 700, height: 520, seed: 2)
        let (one, banded) = try paintBothWays(source, x: 3.3, y: -4.6, scale: scale, alpha: 0.8, clip: (0, 0, 900, 700))
        #expect(try Self.differing(one, banded, tolerance: 3, name: "banded-paint-scale-\(scale)") == 0)
    }

    @Test func paintsThatAreNotTheSameInBandsAreLeftToOnePaint() throws {
        let source = try Self.noise(width: 700, height: 520, seed: 3)
        let image = try RasterImage(width: 900, height: 700)
        func bands(_ setUp: (DrawingContext) -> Void) throws -> Bool {
            let context = try DrawingContext(image)
            context.drawsConcurrently = true
            setUp(context)
            let banded = context.drawInBands(source, x: 0.5, y: 0.5, scale: 1, alpha: 1, padEdges: true, resampling: .bilinear)
            try context.finish("test paint")
            return banded
        }
        #expect(try bands { _ in })
        #expect(try !bands { $0.drawsConcurrently = false }, "not asked for")
        #expect(try !bands { $0.rectangle(10.5, 20, 800, 600); $0.clip() }, "clip edges between pixels")
        #expect(try !bands { $0.circle(450, 350, radius: 300); $0.clip() }, "clip along a path")
        #expect(try !bands { $0.beginGroup() }, "inside a group")
        #expect(try !bands { $0.scale(2) }, "transformed")
        #expect(try !bands { $0.rectangle(0, 0, 900, 100); $0.clip() }, "too few pixels")
    }

    /// A mosaic with margins, tiles in them and a tile scaled into its cell, stitched a row of
    /// cells per core, equals the one stitched on one thread.
    @Test func aMosaicStitchedOnAllCoresEqualsOneStitchedOnOne() throws {
        let range = TileRange(level: 5, columns: 10...13, rows: 20...22)
        var tiles: [TileCoord: RasterImage] = [:]
        for x in 9...14 {
            for y in 19...23 {
                let odd = x == 11 && y == 21
                tiles[TileCoord(z: 5, x: x, y: y)] = try Self.noise(width: odd ? 300 : 256, height: odd ? 200 : 256,
                                                                   seed: UInt32(x * 100 + y))
            }
        }
        let coords = Array(tiles.keys)
        let margins = TileMosaic.Margins(left: 8, top: 8, right: 8, bottom: 0)
        let one = try TileMosaic(range: range, coords: coords, cellWidth: 256, cellHeight: 256, margins: margins,
                                 concurrently: false) { tiles[$0] }
        let all = try TileMosaic(range: range, coords: coords, cellWidth: 256, cellHeight: 256, margins: margins,
                                 concurrently: true) { tiles[$0] }
        #expect(one.image.width * one.image.height >= TileMosaic.concurrentMinimumPixels)
        #expect(try Self.differing(one.image, all.image, tolerance: 0, name: "mosaic-stitched-on-all-cores") == 0)
        // Painted from, as a render does: Cairo must know the mosaic is no longer clear.
        let painted = try [one, all].map { mosaic in
            let image = try RasterImage(width: mosaic.image.width, height: mosaic.image.height)
            let context = try DrawingContext(image)
            context.drawsConcurrently = false
            context.draw(mosaic.image, x: 0.5, y: 0.25, scale: 1, padEdges: true)
            try context.finish("paint mosaic")
            return image
        }
        #expect(try Self.differing(painted[0], painted[1], tolerance: 0, name: "mosaic-stitched-on-all-cores-painted") == 0)
    }

    /// Whole renders: PNG tiles at a sub-pixel offset under a translucent layer, on all cores
    /// and on one.
    @Test("a render drawn on all cores equals one drawn on one", arguments: [6.0, 6.43])
    func renderOnAllCores(_ zoom: Double) async throws {
        let folder = try TemporaryFolder()
        for x in 29...38 {
            for y in 19...26 {
                let tile = try Self.noise(width: 256, height: 256, seed: UInt32(x * 1000 + y), translucent: false)
                try folder.write(try ImageEncoder.png(tile), to: "tiles/6/\(x)/\(y).png")
            }
        }
        let style = try RenderHelpers.style("""
            background: "#ffffff"
            layers:
              - {id: t, source: {type: xyz, path: "tiles/{z}/{x}/{y}.png", minzoom: 6, maxzoom: 6}}
              - {id: d, opacity: 0.7, source: {type: debug, color: "#b00020"}}
            """, in: folder)
        let viewport = try Viewport(center: LonLat(lon: 10.5, lat: 47.5), zoom: zoom, width: 1000, height: 800)
        var serial = MapRenderer(style: style, options: RenderOptions(attribution: false))
        serial.drawsConcurrently = false
        let a = try await serial.render(viewport)
        let b = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport)
        let tolerance = zoom == zoom.rounded() ? 0 : 3
        #expect(try Self.differing(a.image, b.image, tolerance: tolerance, name: "render-on-all-cores-z\(zoom)") == 0)
    }
}
