import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

@Suite struct ImageDiffTests {
    func image(_ size: Int = 20, _ draw: (inout [[RGBA]]) -> Void) throws -> RasterImage {
        var grid = Array(repeating: Array(repeating: RGBA.white, count: size), count: size)
        draw(&grid)
        let image = try RasterImage(width: size, height: size)
        image.withMutablePixels { words, perRow in
            for y in 0..<size {
                for x in 0..<size {
                    let c = grid[y][x]
                    words[y * perRow + x] = 0xFF00_0000 | UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b)
                }
            }
        }
        return image
    }

    @Test func identicalImagesDoNotDiffer() throws {
        let a = try image { _ in }
        let result = try ImageDiff.compare(a, a)
        #expect(result.differingPixels == 0 && result.antialiasedPixels == 0)
    }

    @Test func aChangedPixelInAFlatAreaCounts() throws {
        let a = try image { _ in }
        let b = try image { $0[5][5] = RGBA(r: 0, g: 0, b: 0) }
        let result = try ImageDiff.compare(a, b, makeDiffImage: true)
        #expect(result.differingPixels == 1)
        #expect(result.diffImage?.rgba(x: 5, y: 5) == RGBA(r: 255, g: 0, b: 0))
    }

    @Test func smallColourChangesStayUnderTheThreshold() throws {
        let a = try image { _ in }
        let b = try image { g in for y in 0..<20 { for x in 0..<20 { g[y][x] = RGBA(r: 250, g: 250, b: 250) } } }
        #expect(try ImageDiff.compare(a, b, threshold: 0.1).differingPixels == 0)
        #expect(try ImageDiff.compare(a, b, threshold: 0.01).differingPixels == 400)
    }

    @Test func antialiasedEdgePixelsAreNotCounted() throws {
        // A black/white edge whose single grey transition column moves darker in one image.
        func edge(_ grey: UInt8) throws -> RasterImage {
            try image { g in
                for y in 0..<20 {
                    for x in 0..<20 { g[y][x] = x < 10 ? RGBA.black : x == 10 ? RGBA(r: grey, g: grey, b: grey) : RGBA.white }
                }
            }
        }
        let result = try ImageDiff.compare(try edge(200), try edge(80))
        #expect(result.differingPixels == 0)
        #expect(result.antialiasedPixels == 20)
        #expect(try ImageDiff.compare(try edge(200), try edge(80), includeAntialiasing: true).differingPixels == 20)
    }

    @Test func sizeMismatchIsAnError() throws {
        #expect(throws: ImageDiffError.self) { try ImageDiff.compare(try image(10) { _ in }, try image(12) { _ in }) }
    }
}
