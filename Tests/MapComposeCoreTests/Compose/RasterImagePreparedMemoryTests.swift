import CCairo
import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// A render makes its map's memory ready on another thread before it draws: the next image from
/// that size up to the room given takes it (the map, or the slab of tiles the map is a view
/// of), transparent and on its own huge pages; smaller or larger images do not, and memory
/// nothing took can be released. (Odd sizes, so that no test running at the same time makes an
/// image that fits.)
@Suite(.serialized) struct RasterImagePreparedMemoryTests {
    @Test func theNextImageOfThePreparedSizeTakesItTransparent() throws {
        let (width, height) = (1201, 1093)
        RasterImage.prepareMemory(width: width, height: height, roomWidth: width, roomHeight: height)
        #expect(RasterImage.preparedMemoryIsWaiting)
        let image = try RasterImage(width: width, height: height)
        #expect(!RasterImage.preparedMemoryIsWaiting, "the image took the prepared memory")
        let address = UInt(bitPattern: cairo_image_surface_get_data(image.surface))
        #expect(address % (2 << 20) == 0)
        try RasterImageMemoryTests.expectTransparentAndPaintable(image)
    }

    /// The slab of tiles a map is a view of is larger than the map: it fits the room.
    @Test func aLargerImageWithinTheRoomTakesIt() throws {
        let (width, height) = (1111, 1031)
        RasterImage.prepareMemory(forMapWidth: width, height: height)
        let slab = try RasterImage(width: 1536, height: 1280)
        #expect(!RasterImage.preparedMemoryIsWaiting, "the slab took the prepared memory")
        try RasterImageMemoryTests.expectTransparentAndPaintable(slab)
    }

    @Test func imagesSmallerThanPreparedOrBeyondTheRoomLeaveItWaitingUntilItIsDiscarded() throws {
        RasterImage.prepareMemory(width: 1100, height: 977, roomWidth: 1300, roomHeight: 977)
        #expect(RasterImage.preparedMemoryIsWaiting)
        let smaller = try RasterImage(width: 1099, height: 977)
        #expect(smaller.withPixels { pixels, _ in pixels.allSatisfy { $0 == 0 } })
        let larger = try RasterImage(width: 1301, height: 977)
        #expect(larger.withPixels { pixels, _ in pixels.allSatisfy { $0 == 0 } })
        #expect(RasterImage.preparedMemoryIsWaiting, "images that do not fit make their own memory")
        // One preparation at a time: a second one waits for the first to be taken.
        RasterImage.prepareMemory(width: 1203, height: 1091, roomWidth: 1203, roomHeight: 1091)
        _ = try RasterImage(width: 1203, height: 1091)
        #expect(RasterImage.preparedMemoryIsWaiting)
        RasterImage.discardPreparedMemory()
        #expect(!RasterImage.preparedMemoryIsWaiting)
        _ = try RasterImage(width: 1100, height: 977)
    }

    /// An image may take the memory while its thread is still faulting pages in (64 MB take that
    /// thread about 20 ms here): the thread writes nothing, so what the image draws at once
    /// stays, and the thread stops.
    @Test func memoryTakenWhileBeingPreparedKeepsWhatIsDrawnOnIt() throws {
        let (width, height) = (4001, 4003)
        RasterImage.prepareMemory(width: width, height: height, roomWidth: width, roomHeight: height)
        Thread.sleep(forTimeInterval: 0.002)  // the thread has mapped the memory and is at work
        let image = try RasterImage(width: width, height: height)
        #expect(!RasterImage.preparedMemoryIsWaiting)
        let colour = RGBA(r: 10, g: 20, b: 30, a: 255)
        let context = try DrawingContext(image)
        context.paint(colour)
        try context.finish("paint")
        Thread.sleep(forTimeInterval: 0.1)
        let word = image.withPixels { pixels, _ in pixels[0] }
        #expect(image.withPixels { pixels, _ in pixels.allSatisfy { $0 == word } }, "no pixel was cleared behind the paint")
        #expect(image.rgba(x: width - 1, y: height - 1) == colour)
    }

    /// Memory given up while its thread may still be clearing it is released by that thread,
    /// and a size other than the one prepared gives up nothing.
    @Test func memoryGivenUpWhileBeingPreparedIsReleasedByItsThread() throws {
        let (width, height) = (4001, 4003)
        RasterImage.prepareMemory(forMapWidth: width, height: height)
        RasterImage.discardPreparedMemory(width: width + 2, height: height)
        #expect(RasterImage.preparedMemoryIsWaiting, "memory for another size is kept")
        RasterImage.discardPreparedMemory(width: width, height: height)
        #expect(!RasterImage.preparedMemoryIsWaiting)
        // Another preparation can start at once, and an image of the size given up makes its own.
        RasterImage.prepareMemory(forMapWidth: 1205, height: 1087)
        #expect(RasterImage.preparedMemoryIsWaiting)
        RasterImage.discardPreparedMemory()
        try RasterImageMemoryTests.expectTransparentAndPaintable(try RasterImage(width: width, height: height))
    }

    /// A map that is a view of its tiles' slab leaves nothing prepared waiting (the slab took
    /// it), with the pixels of a map drawn from the tiles.
    @Test func aRenderWhoseMapIsAViewOfTheSlabLeavesNothingWaiting() async throws {
        let folder = try TilesAsMapTests.folder()
        let style = try RenderHelpers.style(TilesAsMapTests.layer + "}\n", in: folder)
        RasterImage.prepareMemory(forMapWidth: 1024, height: 1024)
        let viewed = try await TilesAsMapTests.render(style, width: 1024, height: 1024)
        #expect(viewed.image.isView)
        #expect(!RasterImage.preparedMemoryIsWaiting)
        let drawn = try await TilesAsMapTests.render(style, width: 1024, height: 1024, mayViewTiles: false)
        #expect(TilesAsMapTests.samePixels(viewed.image, drawn.image))
    }

    @Test func imagesTooSmallForHugePagesOrImpossibleAreNotPrepared() {
        for (width, height) in [(512, 512), (0, 2000), (2000, -1), (Int.max, 2), (1 << 20, 1 << 20)] {
            RasterImage.prepareMemory(forMapWidth: width, height: height)
            #expect(!RasterImage.preparedMemoryIsWaiting, "\(width)x\(height)")
        }
    }
}
