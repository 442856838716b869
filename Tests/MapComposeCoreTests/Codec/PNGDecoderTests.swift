import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// mapcompose's PNG decoder gives exactly the pixels Cairo's own reader gave for the same
/// file (premultiplied with Cairo's rounding), and its straight RGBA is what those pixels were
/// premultiplied from: on every colour type and depth (PNGVariants/, see make-variants.py)
/// and on every PNG among the fixtures.
@Suite struct PNGDecoderTests {
    static let variants: [String] = {
        let folder = TestPaths.fixture("PNGVariants")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".png") }.sorted()
    }()

    /// Every PNG under Tests/Fixtures, relative paths.
    static func fixturePNGs() -> [String] {
        let root = TestPaths.fixture("")
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".png") }.sorted()
    }

    /// The decoded tile's words, rows packed.
    static func words(_ image: RasterImage) -> [UInt32] {
        image.withPixels { words, perRow in
            (0..<image.height).flatMap { y in words[y * perRow..<y * perRow + image.width] }
        }
    }

    /// Straight R, G, B, A premultiplied with Cairo's rounding, as a native 0xAARRGGBB word.
    static func cairoPremultiplied(_ word: UInt32) -> UInt32 {
        let a = word >> 24
        if a == 0 { return 0 }
        func multiply(_ c: UInt32) -> UInt32 {
            if a == 255 { return c }
            let t = a * c + 0x80
            return (t + (t >> 8)) >> 8
        }
        return a << 24 | multiply(word & 0xFF) << 16 | multiply(word >> 8 & 0xFF) << 8 | multiply(word >> 16 & 0xFF)
    }

    /// Where the two differ, for the failure message.
    static func firstDifference(_ ours: [UInt32], _ reference: [UInt32], width: Int) -> String {
        guard let i = zip(ours, reference).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset else {
            return "counts differ: \(ours.count) vs \(reference.count)"
        }
        return "(\(i % width), \(i / width)): ours \(String(ours[i], radix: 16)), Cairo \(String(reference[i], radix: 16))"
    }

    static func check(_ data: Data, _ name: String) throws {
        guard let reference = CairoPNGReference.decode(data) else {
            #expect(throws: TileDecodeError.self, "Cairo cannot read \(name); neither may we") { try TileDecoder.decode(data) }
            return
        }
        let tile = try TileDecoder.decode(data)
        #expect(tile.width == reference.width && tile.height == reference.height, "\(name)")
        // Compared as one Bool: a failing expectation on the arrays themselves would make the
        // test library diff a million pixels element by element, which takes hours.
        let ours = words(tile)
        let oursMatch = ours == reference.pixels
        #expect(oursMatch, "\(name) \(firstDifference(ours, reference.pixels, width: reference.width))")
        let straight = try StraightPNGDecoder.decode(data)
        let premultiplied = straight.pixels.map(cairoPremultiplied)
        let straightMatches = premultiplied == reference.pixels
        #expect(straightMatches,
                "\(name) straight: \(firstDifference(premultiplied, reference.pixels, width: reference.width))")
    }

    @Test func variantsAreAllThere() {
        #expect(Self.variants.count >= 21)
    }

    @Test(arguments: variants)
    func variantDecodesAsCairoReadsIt(_ name: String) throws {
        try Self.check(try Data(contentsOf: TestPaths.fixture("PNGVariants/\(name)")), name)
    }

    @Test func everyFixturePNGDecodesAsCairoReadsIt() throws {
        let names = Self.fixturePNGs()
        #expect(names.count > 400)
        for name in names {
            try Self.check(try Data(contentsOf: TestPaths.fixture(name)), name)
        }
    }

    @Test func aCorruptChunkIsAnErrorNotOtherPixels() throws {
        var bytes = [UInt8](try Data(contentsOf: TestPaths.fixture("PNGVariants/rgba8.png")))
        bytes[bytes.count / 2] ^= 0x10 // inside the image data: its CRC no longer matches
        #expect(throws: TileDecodeError.self) { try TileDecoder.decode(Data(bytes)) }
        #expect(throws: TileDecodeError.self) { try StraightPNGDecoder.decode(Data(bytes)) }
    }

    @Test func everyCutOfAFileIsAnError() throws {
        let data = try Data(contentsOf: TestPaths.fixture("PNGVariants/palette8-trns.png"))
        // Cut anywhere up to the end of the image data (the last 12 bytes are IEND; a text
        // chunk before it is ancillary): never an image, never a crash.
        for length in stride(from: 24, to: data.count - 40, by: 7) {
            #expect(throws: TileDecodeError.self) { try TileDecoder.decode(data.prefix(length)) }
        }
    }
}
