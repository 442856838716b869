import CCairo
import CImageCodecs
import Testing
@testable import MapComposeCore

/// Large images draw on a 2 MiB-aligned buffer of huge pages that their surface owns; small
/// ones on Cairo's own memory. Either way a new image is transparent and draws normally.
@Suite struct RasterImageMemoryTests {
    @Test func largeImagesDrawOnHugePagesAndStartTransparent() throws {
        for (width, height) in [(1024, 1024), (2048, 1031), (1500, 701)] {
            let image = try RasterImage(width: width, height: height)
            #expect(image.byteCount >= RasterImage.hugePageThreshold)
            let address = UInt(bitPattern: cairo_image_surface_get_data(image.surface))
            #expect(address % (2 << 20) == 0, "\(width)x\(height) is not on its own 2 MiB-aligned buffer")
            #expect(image.withPixels { pixels, _ in pixels.allSatisfy { $0 == 0 } })
            let context = try DrawingContext(image)
            context.paint(RGBA(r: 10, g: 20, b: 30, a: 255))
            try context.finish("paint")
            #expect(image.rgba(x: width - 1, y: height - 1) == RGBA(r: 10, g: 20, b: 30, a: 255))
        }
    }

    @Test func smallImagesKeepCairosMemory() throws {
        let image = try RasterImage(width: 256, height: 256)
        #expect(image.byteCount < RasterImage.hugePageThreshold)
        #expect(image.withPixels { pixels, _ in pixels.allSatisfy { $0 == 0 } })
    }

    @Test func hugeBuffersAreZeroedAlignedAndReleased() throws {
        for length in [1, 4096, 2 << 20, (2 << 20) + 1, 9_000_000] {
            let buffer = try #require(mc_huge_buffer_create(length))
            let bytes = mc_huge_buffer_bytes(buffer)!
            #expect(UInt(bitPattern: bytes) % (2 << 20) == 0)
            let view = UnsafeRawBufferPointer(start: bytes, count: length)
            #expect(view.allSatisfy { $0 == 0 })
            bytes.storeBytes(of: 0xFF, toByteOffset: length - 1, as: UInt8.self)
            mc_huge_buffer_destroy(UnsafeMutableRawPointer(buffer))
        }
        #expect(mc_huge_buffer_create(0) == nil)
    }
}
