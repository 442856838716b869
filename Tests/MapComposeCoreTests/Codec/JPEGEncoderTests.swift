import CImageCodecs
import Foundation
import Testing
@testable import MapComposeCore

/// The JPEG encoder's error path releases exactly the buffer it holds.
@Suite struct JPEGEncoderTests {
    /// Noise compresses badly, so its JPEG outgrows the encoder's first 16 KiB buffer.
    static func noise(width: Int, height: Int) throws -> RasterImage {
        let image = try RasterImage(width: width, height: height)
        var state: UInt32 = 0x1234_5678
        image.withMutablePixels { words, _ in
            for i in words.indices {
                state = state &* 1_664_525 &+ 1_013_904_223
                words[i] = 0xFF00_0000 | (state >> 8)
            }
        }
        return image
    }

    func encode(_ image: RasterImage, limit: Int) -> (status: Int32, output: UnsafeMutablePointer<UInt8>?, length: Int, message: String) {
        var message = [CChar](repeating: 0, count: 256)
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = image.withPixels { pixels, _ in
            pixels.baseAddress!.withMemoryRebound(to: UInt8.self, capacity: image.byteCount) { bytes in
                mc_jpeg_encode_argb32(bytes, Int32(image.width), Int32(image.height), Int32(image.stride), 95,
                                      limit, &output, &length, &message, message.count)
            }
        }
        return (status, output, length, String(messageBuffer: message))
    }

    @Test func anErrorAfterTheBufferGrewFreesTheLiveBufferOnce() throws {
        let image = try Self.noise(width: 256, height: 256)
        let full = encode(image, limit: 0)
        #expect(full.status == 0 && full.length > 40_000, "noise needs several buffer growths: \(full.length) bytes")
        mc_jpeg_free(full.output)
        // Fails after growing 16 KiB -> 32 KiB -> 40000 bytes: the old code freed its first buffer
        // a second time here (glibc aborts) and leaked the current one.
        let limited = encode(image, limit: 40_000)
        #expect(limited.status == 1)
        #expect(limited.output == nil && limited.length == 0)
        #expect(limited.message == "JPEG output exceeds the limit of bytes given")
    }

    @Test func aLimitAboveTheOutputChangesNothing() throws {
        let image = try Self.noise(width: 64, height: 64)
        let free = encode(image, limit: 0), roomy = encode(image, limit: 1 << 20)
        defer { free.output.map(mc_jpeg_free); roomy.output.map(mc_jpeg_free) }
        #expect(free.status == 0 && roomy.status == 0)
        let unlimited = try #require(free.output), limited = try #require(roomy.output)
        #expect(Data(bytes: unlimited, count: free.length) == Data(bytes: limited, count: roomy.length))
        let decoded = try TileDecoder.decode(Data(bytes: limited, count: roomy.length))
        #expect(decoded.width == 64 && decoded.height == 64)
    }
}
