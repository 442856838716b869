import Testing
@testable import MapComposeCore

/// Clearing an image all but some columns (what a mosaic does around its tiles' cells).
@Suite struct RasterImageClearingTests {
    static let red = RGBA(r: 220, g: 0, b: 0)

    @Test func clearsEveryColumnButTheKeptOnesOnEveryRow() throws {
        let image = try RasterImage(width: 12, height: 3, color: Self.red)
        image.clearPixels(exceptColumns: [8..<9, 2..<5, 11..<12])
        for y in 0..<3 {
            for x in 0..<12 {
                let kept = (2..<5).contains(x) || x == 8 || x == 11
                #expect(image.rgba(x: x, y: y) == (kept ? Self.red : .transparent), "pixel \(x),\(y)")
            }
        }
    }

    @Test func keepingEveryColumnClearsNothingAndKeepingNoneClearsAll() throws {
        let image = try RasterImage(width: 6, height: 2, color: Self.red)
        image.clearPixels(exceptColumns: [0..<3, 3..<6])
        #expect(image.rgba(x: 0, y: 0) == Self.red && image.rgba(x: 5, y: 1) == Self.red)
        image.clearPixels(exceptColumns: [])
        #expect(image.rgba(x: 0, y: 0) == .transparent && image.rgba(x: 5, y: 1) == .transparent)
    }
}
