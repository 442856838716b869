import CCairo
import CImageCodecs
import Foundation
import Testing
@testable import MapComposeCore

/// The PNG writer given tiles moved by a fraction of a pixel (`ImageEncoder.png(_: TranslatedTiles)`)
/// resamples each row as it filters it: its file is the very file written of the resampled
/// image, at every level, opaque or not, whichever row first turns out not to be opaque.
@Suite struct TranslatedPNGWriterTests {
    /// Tiles of `source` (its size: the map's and one pixel more each way, or more) moved by
    /// (`x`, `y`), a fraction of a pixel up and left, onto a `width × height` map.
    static func tiles(_ source: RasterImage, x: Double, y: Double, width: Int, height: Int) throws -> TranslatedTiles {
        let paint = try #require(TranslatedBilinearPaint(image: source, x: x, y: y, scale: 1, alpha: 1,
                                                         filter: CAIRO_FILTER_BILINEAR, columns: 0..<width, rows: 0..<height))
        return TranslatedTiles(slab: source, paint: paint, width: width, height: height)
    }

    /// The map the tiles give, made the way every other format gets it: the source copied and
    /// resampled in place.
    static func resampled(_ source: RasterImage, x: Double, y: Double, width: Int, height: Int) throws -> RasterImage {
        let copy = try RasterImage(width: source.width, height: source.height)
        source.withPixels { from, _ in copy.withMutablePixels { to, _ in _ = to.initialize(from: from) } }
        return try tiles(copy, x: x, y: y, width: width, height: height).resampledInPlace()
    }

    static let offsets: [(x: Double, y: Double)] = [(-0.3, -0.7), (-0.99, -0.01), (-0.5, 0), (0, -0.25), (-1.4, -2.6)]

    @Test func theFileIsTheResampledImagesFile() throws {
        let sources: [(String, RasterImage, Int, Int)] = [
            ("opaque, many strips", try PNGWriterTests.image(width: 1203, height: 905, .opaque), 1200, 900),
            ("translucent", try PNGWriterTests.image(width: 703, height: 804, .translucent, seed: 7), 700, 800),
            ("transparent", try PNGWriterTests.image(width: 40, height: 30, .transparent), 37, 27),
            ("one pixel", try PNGWriterTests.image(width: 4, height: 4, .opaque), 1, 1),
        ]
        for (name, source, width, height) in sources {
            for offset in Self.offsets {
                let tiles = try Self.tiles(source, x: offset.x, y: offset.y, width: width, height: height)
                let map = try Self.resampled(source, x: offset.x, y: offset.y, width: width, height: height)
                for level in PNGWriterTests.levels {
                    let written = try ImageEncoder.png(tiles, compression: level, text: [("crs", "EPSG:3857")])
                    let expected = try ImageEncoder.png(map, compression: level, text: [("crs", "EPSG:3857")])
                    // Compared as one Bool: a failing comparison of the Data would diff megabytes.
                    let same = written == expected
                    #expect(same, "\(name) moved by \(offset), level \(level)")
                }
            }
        }
    }

    /// The guess that the map is opaque comes from the rows it is resampled from; a pixel short
    /// of opaque on a row the guess skipped, in any strip, still gives the RGBA file.
    @Test func aTranslucentPixelBetweenTheSampledRowsGivesTheRGBAFile() throws {
        // The last two are samples of the map's last column and last row only.
        for (x, y, word) in [(5, 803, UInt32(0x8040_2010)), (600, 453, 0xFE10_2030), (1200, 1, 0), (0, 900, 0x0101_0101)] {
            let source = try PNGWriterTests.image(width: 1203, height: 905, .opaque)
            source.withMutablePixels { words, perRow in words[y * perRow + x] = word }
            let tiles = try Self.tiles(source, x: -0.3, y: -0.7, width: 1200, height: 900)
            let map = try Self.resampled(source, x: -0.3, y: -0.7, width: 1200, height: 900)
            let written = try ImageEncoder.png(tiles)
            #expect(written[25] == 6, "pixel at \(x),\(y): RGBA")
            let same = written == (try ImageEncoder.png(map))
            #expect(same, "pixel at \(x),\(y)")
        }
    }

    @Test func badTranslationsAreAnErrorWithAMessage() {
        var message = [CChar](repeating: 0, count: 256)
        var output: UnsafeMutablePointer<UInt8>? = UnsafeMutablePointer(bitPattern: 1)
        var length = 7
        let pixels = [UInt8](repeating: 0, count: 64)
        for (stride, weightX, weightY) in [(8, 10, 10), (16, 128, 0), (16, 0, -1)] {
            output = UnsafeMutablePointer(bitPattern: 1)
            let status = mc_png_encode_translated_argb32(pixels, Int32(stride), 2, 2, Int32(weightX), Int32(weightY), 6, 0, 0,
                                                         nil, 0, &output, &length, &message, message.count)
            #expect(status != 0 && output == nil && length == 0, "stride \(stride), weights \(weightX), \(weightY)")
            #expect(String(messageBuffer: message).contains("invalid translation"))
        }
    }
}
