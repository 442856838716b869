import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Two PNG files compared a band of rows at a time give what comparing the whole images gives:
/// the same counts and the same diff image, whatever the band height, across band edges.
@Suite struct StreamedImageDiffTests {
    /// A `width` × `height` map-like image: a flat ground, anti-aliased diagonal lines and a
    /// few translucent pixels, with `shift` moving the lines and a block by whole pixels.
    static func scene(width: Int, height: Int, shift: Int, seed: UInt64) -> RGBAImage {
        var random = SplitMix(state: seed)
        var pixels = [UInt32](repeating: RGBAImage.word(RGBA(r: 240, g: 235, b: 220)), count: width * height)
        for line in stride(from: 0, to: width, by: 23) {
            for y in 0..<height {
                let x = line + (y + shift) / 3
                guard x + 1 < width else { continue }
                pixels[y * width + x] = RGBAImage.word(RGBA(r: 30, g: 60, b: 200))
                pixels[y * width + x + 1] = RGBAImage.word(RGBA(r: 135, g: 147, b: 210))
            }
        }
        for y in (height / 2 + shift)..<min(height, height / 2 + shift + 9) {
            for x in 10..<30 { pixels[y * width + x] = RGBAImage.word(RGBA(r: 200, g: 0, b: 0)) }
        }
        for _ in 0..<40 {
            let i = Int(random.next() % UInt64(width * height))
            pixels[i] = RGBAImage.word(RGBA(r: UInt8(random.next() % 256), g: 80, b: 80, a: UInt8(random.next() % 256)))
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    static func png(_ image: RGBAImage) throws -> Data {
        try ImageEncoder.png(try image.rasterImage())
    }

    /// `png` with the second half of its first IDAT chunk overwritten: the compressed rows end
    /// early but every chunk is whole, so the header reads and the rows do not.
    static func brokenMidway(_ png: Data) -> Data {
        var broken = png
        let idat = broken.range(of: Data("IDAT".utf8))!.lowerBound
        let length = Int(broken[idat - 4]) << 24 | Int(broken[idat - 3]) << 16 | Int(broken[idat - 2]) << 8 | Int(broken[idat - 1])
        for i in idat + 4 + length / 2..<idat + 4 + length { broken[i] = 0x55 }
        return broken
    }

    @Test(arguments: [1 << 22, 97 * 16, 97 * 37])
    func countsAndDiffImageEqualTheWholeImageComparison(pixelsPerBand: Int) throws {
        let a = Self.scene(width: 97, height: 131, shift: 0, seed: 1), b = Self.scene(width: 97, height: 131, shift: 2, seed: 2)
        let whole = try ImageDiff.compare(a, b, makeDiffImage: true)
        #expect(whole.differingPixels > 100 && whole.antialiasedPixels > 10, "the scene has both kinds of difference")
        var diffRows: [UInt32] = []
        let streamed = try ImageDiff.compare(try PNGRowReader(try Self.png(a), decodingWholeUpTo: 0), try PNGRowReader(try Self.png(b), decodingWholeUpTo: 0),
                                             pixelsPerBand: pixelsPerBand) { rows in diffRows += rows }
        #expect(streamed.differingPixels == whole.differingPixels)
        #expect(streamed.antialiasedPixels == whole.antialiasedPixels)
        #expect(diffRows == whole.diffImage?.pixels)
    }

    /// Readers that decoded their images whole are compared in place: the same counts and the
    /// same diff image, handed out in bands.
    @Test func readersDecodedWholeGiveTheSameCountsAndDiffImage() throws {
        let a = Self.scene(width: 97, height: 131, shift: 0, seed: 1), b = Self.scene(width: 97, height: 131, shift: 2, seed: 2)
        let (fileA, fileB) = (try Self.png(a), try Self.png(b))
        var streamedRows: [UInt32] = [], wholeRows: [UInt32] = [], bands = 0
        let streamed = try ImageDiff.compare(try PNGRowReader(fileA, decodingWholeUpTo: 0), try PNGRowReader(fileB, decodingWholeUpTo: 0),
                                             pixelsPerBand: 97 * 16) { rows in streamedRows += rows }
        let readers = PNGRowReader.open([fileA, fileB])
        let whole = try ImageDiff.compare(try readers[0].get(), try readers[1].get(), pixelsPerBand: 97 * 16) { rows in
            wholeRows += rows
            bands += 1
        }
        #expect(whole.differingPixels == streamed.differingPixels && whole.antialiasedPixels == streamed.antialiasedPixels)
        #expect(whole.differingPixels > 100 && whole.diffImage == nil)
        #expect(wholeRows == streamedRows && bands == 9, "131 rows in bands of 16")
    }

    @Test func includingAntialiasingCountsTheSameAsTheWholeImageComparison() throws {
        let a = Self.scene(width: 64, height: 80, shift: 0, seed: 3), b = Self.scene(width: 64, height: 80, shift: 1, seed: 4)
        let whole = try ImageDiff.compare(a, b, threshold: 0.05, includeAntialiasing: true)
        let streamed = try ImageDiff.compare(try PNGRowReader(try Self.png(a), decodingWholeUpTo: 0), try PNGRowReader(try Self.png(b), decodingWholeUpTo: 0),
                                             threshold: 0.05, includeAntialiasing: true, pixelsPerBand: 64 * 16)
        #expect(streamed.differingPixels == whole.differingPixels && streamed.antialiasedPixels == 0)
    }

    /// Every colour type, depth and interlacing of PNGVariants/ reads row by row as it decodes whole.
    @Test func rowsEqualTheWholeDecodeForEveryVariant() throws {
        let folder = TestPaths.fixture("PNGVariants")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }
        #expect(names.count > 10)
        for name in names {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            guard let whole = try? StraightPNGDecoder.decode(data) else {
                #expect(throws: TileDecodeError.self, "\(name) fails whole, so it fails by rows") {
                    let reader = try PNGRowReader(data, decodingWholeUpTo: 0)
                    var rows = [UInt32](repeating: 0, count: reader.width * reader.height)
                    try rows.withUnsafeMutableBufferPointer { try reader.read(reader.height, into: $0.baseAddress!) }
                }
                continue
            }
            let reader = try PNGRowReader(data, decodingWholeUpTo: 0)
            var rows = [UInt32](repeating: 0, count: whole.pixels.count)
            try rows.withUnsafeMutableBufferPointer { rows in
                var y = 0
                while y < reader.height {
                    let count = min(3, reader.height - y)
                    try reader.read(count, into: rows.baseAddress! + y * reader.width)
                    y += count
                }
            }
            #expect(rows == whole.pixels, "\(name)")
        }
    }

    @Test func aFileThatBreaksOffMidwayNamesWhichImage() throws {
        let a = Self.scene(width: 200, height: 300, shift: 0, seed: 5)
        let good = try Self.png(a)
        let broken = Self.brokenMidway(good)
        #expect {
            _ = try ImageDiff.compare(try PNGRowReader(good, decodingWholeUpTo: 0), try PNGRowReader(broken, decodingWholeUpTo: 0),
                                     pixelsPerBand: 200 * 16)
        } throws: { error in
            guard case StreamedDiffError.unreadable(image: 1, _) = error else { return false }
            return true
        }
    }

    /// An image of at most `PNGRowReader.wholeImagePixels` is decoded when its reader is made
    /// (so a broken one fails there, naming its slot), and hands out the rows the streamed
    /// reader does.
    @Test func aSmallImageIsDecodedWholeWhenItsReaderIsMade() throws {
        let a = Self.scene(width: 200, height: 300, shift: 0, seed: 7)
        let good = try Self.png(a)
        let broken = Self.brokenMidway(good)
        #expect(throws: TileDecodeError.self, "decoded whole: the broken rows fail at once") { try PNGRowReader(broken) }
        #expect((try? PNGRowReader(broken, decodingWholeUpTo: 0)) != nil, "streamed: the header alone is read at first")
        let opened = PNGRowReader.open([good, broken])
        guard case .success(let reader) = opened[0], case .failure = opened[1] else {
            Issue.record("expected the good file's reader and the broken file's failure")
            return
        }
        let streamed = try PNGRowReader(good, decodingWholeUpTo: 0)
        var rows = [UInt32](repeating: 0, count: 200 * 300), streamedRows = rows
        try rows.withUnsafeMutableBufferPointer { try reader.read(300, into: $0.baseAddress!) }
        try streamedRows.withUnsafeMutableBufferPointer { try streamed.read(300, into: $0.baseAddress!) }
        #expect(rows == streamedRows && rows.contains { $0 != 0 })
    }

    @Test func theDiffImageWrittenByBandsIsAPNGOfThoseRows() throws {
        let image = Self.scene(width: 50, height: 70, shift: 0, seed: 6)
        let writer = try PNGRowWriter(width: 50, height: 70)
        var file = Data()
        try image.pixels.withUnsafeBufferPointer { pixels in
            for band in stride(from: 0, to: 70, by: 16) {
                let rows = band..<min(70, band + 16)
                file += try writer.write(UnsafeBufferPointer(rebasing: pixels[rows.lowerBound * 50..<rows.upperBound * 50]))
            }
        }
        let decoded = try StraightPNGDecoder.decode(file)
        // The file is opaque RGB: every pixel's colour, alpha 255.
        #expect(decoded.pixels == image.pixels.map { $0 | 0xFF00_0000 })
    }
}
