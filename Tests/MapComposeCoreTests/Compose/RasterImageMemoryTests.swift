import CCairo
import CImageCodecs
import CPixelMemory
import Testing
@testable import MapComposeCore

/// Large images draw on a 2 MiB-aligned buffer of huge pages that their surface owns; tile-sized
/// ones on a pool of buffers sharing huge pages, reused once released; small ones on Cairo's own
/// memory. Either way a new image is transparent and draws normally.
@Suite struct RasterImageMemoryTests {
    @Test func largeImagesDrawOnHugePagesAndStartTransparent() throws {
        // 768² (2.25 MiB, a 512² view's mosaic of 3 × 3 tiles) is just over the pool's largest buffer.
        for (width, height) in [(1024, 1024), (2048, 1031), (1500, 701), (768, 768)] {
            let image = try RasterImage(width: width, height: height)
            #expect(image.byteCount >= RasterImage.hugePageThreshold)
            let address = UInt(bitPattern: cairo_image_surface_get_data(image.surface))
            #expect(address % (2 << 20) == 0, "\(width)x\(height) is not on its own 2 MiB-aligned buffer")
            try Self.expectTransparentAndPaintable(image)
        }
    }

    /// Checks that `image` starts all transparent and that a paint fills it to its last pixel.
    static func expectTransparentAndPaintable(_ image: RasterImage) throws {
        #expect(image.withPixels { pixels, _ in pixels.allSatisfy { $0 == 0 } })
        let context = try DrawingContext(image)
        context.paint(RGBA(r: 10, g: 20, b: 30, a: 255))
        try context.finish("paint")
        #expect(image.rgba(x: image.width - 1, y: image.height - 1) == RGBA(r: 10, g: 20, b: 30, a: 255))
    }

    @Test func smallImagesKeepCairosMemory() throws {
        let image = try RasterImage(width: 100, height: 100)
        #expect(image.byteCount < MC_POOLED_BUFFER_MIN)
        #expect(image.withPixels { pixels, _ in pixels.allSatisfy { $0 == 0 } })
    }

    /// The pool's buffers are 64 KiB-aligned slots of huge-page chunks (eight 256-px tiles to a
    /// chunk); a released one is reused for the next image of its size, transparent again. (An
    /// odd size, so that no other test running at the same time takes the released buffer.)
    @Test func tileSizedImagesShareHugePagesAndReuseReleasedBuffers() throws {
        let (width, height) = (333, 317)
        var tiles = try (0..<8).map { _ in try RasterImage(width: width, height: height) }
        let addresses = tiles.map { UInt(bitPattern: cairo_image_surface_get_data($0.surface)) }
        #expect(Set(addresses).count == 8)
        #expect(addresses.allSatisfy { $0 % UInt(MC_POOLED_BUFFER_MIN) == 0 })
        for tile in tiles {
            let context = try DrawingContext(tile)
            context.paint(RGBA(r: 200, g: 0, b: 0, a: 255))
            try context.finish("paint")
        }
        let released = addresses[3]
        tiles.remove(at: 3)
        let again = try RasterImage(width: width, height: height)
        #expect(UInt(bitPattern: cairo_image_surface_get_data(again.surface)) == released,
                "a released buffer of the same size is taken first")
        #expect(again.withPixels { pixels, _ in pixels.allSatisfy { $0 == 0 } }, "a reused buffer starts transparent")
        #expect(tiles.allSatisfy { $0.rgba(x: width - 1, y: height - 1) == RGBA(r: 200, g: 0, b: 0, a: 255) })
    }

    @Test func poolBuffersCoverTheirRangeOnly() throws {
        #expect(mc_pooled_buffer_create(MC_POOLED_BUFFER_MIN - 1) == nil)
        #expect(mc_pooled_buffer_create(MC_POOLED_BUFFER_MAX + 1) == nil)
        for length in [MC_POOLED_BUFFER_MIN, 262_144, 300_001, MC_POOLED_BUFFER_MAX] {
            let buffer = try #require(mc_pooled_buffer_create(length))
            let bytes = try #require(mc_pooled_buffer_bytes(buffer))
            let view = UnsafeMutableRawBufferPointer(start: bytes, count: length)
            #expect(view.allSatisfy { $0 == 0 })
            view[length - 1] = 0xFF
            mc_pooled_buffer_destroy(UnsafeMutableRawPointer(buffer))
        }
    }

    /// Buffers taken and released on many threads at once are never handed out twice.
    @Test func poolIsSafeAcrossThreads() async throws {
        let collisions = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var found = 0
                    for round in 0..<200 {
                        guard let buffer = mc_pooled_buffer_create(MC_POOLED_BUFFER_MIN * (1 + round % 4)),
                              let bytes = mc_pooled_buffer_bytes(buffer) else { continue }
                        let words = bytes.assumingMemoryBound(to: UInt64.self)
                        if words[0] != 0 { found += 1 }
                        words[0] = UInt64(worker + 1)
                        if words[0] != UInt64(worker + 1) { found += 1 }
                        words[0] = 0
                        mc_pooled_buffer_destroy(UnsafeMutableRawPointer(buffer))
                    }
                    return found
                }
            }
            return await group.reduce(0, +)
        }
        #expect(collisions == 0)
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

    /// A released huge buffer is kept and handed out again, zeroed, for a later buffer it can
    /// hold (at most twice that size); a much smaller one gets memory of its own. (An odd size,
    /// over 40 MiB, that no other test running at the same time asks for.)
    @Test func releasedHugeBuffersAreReusedZeroed() throws {
        let length = 42_000_017
        let first = try #require(mc_huge_buffer_create(length))
        let bytes = try #require(mc_huge_buffer_bytes(first))
        bytes.initializeMemory(as: UInt8.self, repeating: 0x5A, count: length)
        // Room among the kept buffers, whatever other tests released.
        mc_huge_buffer_drop_spares()
        mc_huge_buffer_destroy(UnsafeMutableRawPointer(first))
        #expect(mc_huge_buffer_spare_bytes() >= 42 << 20)
        let small = try #require(mc_huge_buffer_create(length / 4))
        #expect(mc_huge_buffer_bytes(small) != bytes, "a buffer of over twice the size is not handed out")
        mc_huge_buffer_destroy(UnsafeMutableRawPointer(small))
        let again = try #require(mc_huge_buffer_create(length - 1000))
        #expect(mc_huge_buffer_bytes(again) == bytes, "the released buffer is taken again")
        #expect(UnsafeRawBufferPointer(start: mc_huge_buffer_bytes(again), count: length - 1000).allSatisfy { $0 == 0 })
        mc_huge_buffer_destroy(UnsafeMutableRawPointer(again))
    }

    /// Scratch memory (the PNG writer's rows and deflate state) is zeroed and 64-byte aligned
    /// whatever its size; within the pool's range it is a pool buffer, so memory released by one
    /// user is taken again, zeroed, by the next of its size.
    @Test func scratchMemoryIsZeroedAlignedAndReused() throws {
        for length in [0, 1, 4_000, 100_000, 424_242, 3_000_000] {
            let memory = try #require(mc_scratch_alloc(length))
            #expect(UInt(bitPattern: memory) % 64 == 0)
            let view = UnsafeMutableRawBufferPointer(start: memory, count: length)
            #expect(view.allSatisfy { $0 == 0 }, "\(length) bytes")
            for index in view.indices { view[index] = 0xA5 }
            mc_scratch_free(memory)
        }
        // An odd size, so that no other test running at the same time takes the released buffer.
        let length = 577_777
        let first = try #require(mc_scratch_alloc(length))
        first.initializeMemory(as: UInt8.self, repeating: 0x5A, count: length)
        mc_scratch_free(first)
        let again = try #require(mc_scratch_alloc(length))
        #expect(again == first, "the released pool buffer is taken again")
        #expect(UnsafeRawBufferPointer(start: again, count: length).allSatisfy { $0 == 0 })
        mc_scratch_free(again)
        mc_scratch_free(nil)
    }
}
