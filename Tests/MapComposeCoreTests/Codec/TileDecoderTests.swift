import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

@Suite struct TileDecoderTests {
    @Test func decodesPNGWithAlpha() throws {
        let image = try TileDecoder.decode(try TileFixtures.solidPNG(RGBA(r: 200, g: 100, b: 50, a: 128)))
        #expect(image.width == 256 && image.height == 256)
        let px = image.rgba(x: 10, y: 10)
        #expect(px.a == 128)
        #expect(abs(Int(px.r) - 200) <= 2 && abs(Int(px.g) - 100) <= 2 && abs(Int(px.b) - 50) <= 2)
    }

    @Test func decodesJPEG() throws {
        let image = try TileDecoder.decode(try TileFixtures.solidJPEG(RGBA(r: 30, g: 120, b: 220)))
        let px = image.rgba(x: 100, y: 100)
        #expect(px.a == 255)
        #expect(abs(Int(px.r) - 30) <= 3 && abs(Int(px.g) - 120) <= 3 && abs(Int(px.b) - 220) <= 3)
    }

    @Test func truncatedPNGIsCorrupt() throws {
        #expect(throws: TileDecodeError.corrupt(format: "PNG", detail: "data ends early")) {
            try TileDecoder.decode(try TileFixtures.truncatedPNG())
        }
    }

    @Test func garbageAfterAJPEGMarkerIsCorrupt() {
        #expect(throws: TileDecodeError.corrupt(format: "JPEG", detail: "JPEG datastream contains no image")) {
            try TileDecoder.decode(TileFixtures.corruptJPEG())
        }
    }

    @Test func truncatedJPEGIsCorruptNotGrey() throws {
        let full = try TileFixtures.solidJPEG(RGBA(r: 1, g: 2, b: 3))
        #expect(throws: TileDecodeError.self) { try TileDecoder.decode(full.prefix(full.count - 40)) }
    }

    @Test func oversizedPNGHeaderIsRejectedBeforeDecoding() {
        #expect(throws: TileDecodeError.tooLarge(format: "PNG", width: 5000, height: 5000)) {
            try TileDecoder.decode(TileFixtures.pngHeader(width: 5000, height: 5000))
        }
        #expect(throws: TileDecodeError.tooLarge(format: "PNG", width: 4097, height: 1)) {
            try TileDecoder.decode(TileFixtures.pngHeader(width: 4097, height: 1))
        }
    }

    @Test func oversizedJPEGHeaderIsRejectedBeforeDecoding() throws {
        let data = try TileFixtures.jpegClaiming(width: 60000, height: 60000)
        #expect(throws: TileDecodeError.tooLarge(format: "JPEG", width: 60000, height: 60000)) {
            try TileDecoder.decode(data)
        }
    }

    @Test func unknownBytesAreNotAnImage() {
        #expect(throws: TileDecodeError.unknownFormat(firstBytes: "3c 68 74 6d")) {
            try TileDecoder.decode(Data("<html>404</html>".utf8))
        }
        #expect(throws: TileDecodeError.empty) { try TileDecoder.decode(Data()) }
    }

    @Test func messagesSayWhatIsWrong() {
        #expect(TileDecodeError.tooLarge(format: "PNG", width: 5000, height: 5000).description
                    == "PNG header claims 5000x5000 pixels, over the 4096x4096 limit")
        #expect(TileDecodeError.corrupt(format: "PNG", detail: "data ends early").description
                    == "corrupt PNG data: data ends early")
    }
}

@Suite struct ImageEncoderTests {
    @Test func pngRoundTripKeepsPixels() throws {
        let image = try TileFixtures.solidImage(RGBA(r: 12, g: 34, b: 56, a: 255), size: 8)
        let back = try TileDecoder.decode(try ImageEncoder.png(image))
        #expect(back.rgba(x: 3, y: 3) == RGBA(r: 12, g: 34, b: 56))
    }

    @Test func jpegFlattensTransparencyOntoWhite() throws {
        let image = try RasterImage(width: 16, height: 16)
        let back = try TileDecoder.decode(try ImageEncoder.jpeg(image, quality: 90))
        let px = back.rgba(x: 8, y: 8)
        #expect(px.r >= 250 && px.g >= 250 && px.b >= 250)
    }
}
