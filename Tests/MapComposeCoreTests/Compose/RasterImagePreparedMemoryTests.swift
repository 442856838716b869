import CCairo
import Testing
@testable import MapComposeCore

/// A render makes its map's memory ready on another thread before it draws: the next image of
/// that size takes it, transparent and on its own huge pages; images of other sizes do not, and
/// memory nothing took can be released. (Odd sizes, so that no test running at the same time
/// makes an image of the prepared size.)
@Suite(.serialized) struct RasterImagePreparedMemoryTests {
    @Test func theNextImageOfThePreparedSizeTakesItTransparent() throws {
        let (width, height) = (1201, 1093)
        RasterImage.prepareMemory(width: width, height: height)
        #expect(RasterImage.preparedMemoryIsWaiting)
        let image = try RasterImage(width: width, height: height)
        #expect(!RasterImage.preparedMemoryIsWaiting, "the image took the prepared memory")
        let address = UInt(bitPattern: cairo_image_surface_get_data(image.surface))
        #expect(address % (2 << 20) == 0)
        try RasterImageMemoryTests.expectTransparentAndPaintable(image)
    }

    @Test func otherSizesLeaveItWaitingUntilItIsDiscarded() throws {
        RasterImage.prepareMemory(width: 1100, height: 977)
        #expect(RasterImage.preparedMemoryIsWaiting)
        let other = try RasterImage(width: 1099, height: 977)
        #expect(other.withPixels { pixels, _ in pixels.allSatisfy { $0 == 0 } })
        #expect(RasterImage.preparedMemoryIsWaiting, "an image of another size makes its own memory")
        // One preparation at a time: a second one waits for the first to be taken.
        RasterImage.prepareMemory(width: 1203, height: 1091)
        _ = try RasterImage(width: 1203, height: 1091)
        #expect(RasterImage.preparedMemoryIsWaiting)
        RasterImage.discardPreparedMemory()
        #expect(!RasterImage.preparedMemoryIsWaiting)
        _ = try RasterImage(width: 1100, height: 977)
    }

    /// Memory given up while its thread may still be clearing it (64 MB take that thread about
    /// 20 ms here) is released by that thread, and a size other than the one prepared gives up
    /// nothing.
    @Test func memoryGivenUpWhileBeingPreparedIsReleasedByItsThread() throws {
        let (width, height) = (4001, 4003)
        RasterImage.prepareMemory(width: width, height: height)
        RasterImage.discardPreparedMemory(width: width + 2, height: height)
        #expect(RasterImage.preparedMemoryIsWaiting, "memory for another size is kept")
        RasterImage.discardPreparedMemory(width: width, height: height)
        #expect(!RasterImage.preparedMemoryIsWaiting)
        // Another preparation can start at once, and an image of the size given up makes its own.
        RasterImage.prepareMemory(width: 1205, height: 1087)
        #expect(RasterImage.preparedMemoryIsWaiting)
        RasterImage.discardPreparedMemory()
        try RasterImageMemoryTests.expectTransparentAndPaintable(try RasterImage(width: width, height: height))
    }

    @Test func imagesTooSmallForHugePagesOrImpossibleAreNotPrepared() {
        for (width, height) in [(512, 512), (0, 2000), (2000, -1), (Int.max, 2), (1 << 20, 1 << 20)] {
            RasterImage.prepareMemory(width: width, height: height)
            #expect(!RasterImage.preparedMemoryIsWaiting, "\(width)x\(height)")
        }
    }
}
