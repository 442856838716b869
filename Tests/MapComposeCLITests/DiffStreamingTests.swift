import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// `diff` reads both files a band of rows at a time and writes the diff image as it goes: two
/// 16384 × 2048 images (416 MB to hold whole, with their marks and diff image) compare within
/// a 400 MB address space, of which the program itself takes about 150 MB.
@Suite struct DiffStreamingTests {
    /// A 16384 × 2048 PNG: a flat ground with a dark square at `squareRow`, written by bands.
    static func tallImage(squareRow: Int) throws -> Data {
        let width = 16384, height = 2048
        let writer = try PNGRowWriter(width: width, height: height, level: 1)
        let ground = RGBAImage.word(RGBA(r: 240, g: 235, b: 220)), square = RGBAImage.word(RGBA(r: 20, g: 20, b: 20))
        var file = Data()
        var band = [UInt32](repeating: ground, count: width * 256)
        for start in stride(from: 0, to: height, by: 256) {
            for y in start..<start + 256 {
                for x in 1000..<1010 { band[(y - start) * width + x] = (squareRow..<squareRow + 10).contains(y) ? square : ground }
            }
            file += try band.withUnsafeBufferPointer { try writer.write($0) }
        }
        return file
    }

    @Test func largeImagesCompareInBoundedMemory() throws {
        let folder = try TemporaryFolder()
        try folder.write(try Self.tallImage(squareRow: 1500), to: "a.png")
        try folder.write(try Self.tallImage(squareRow: 1505), to: "b.png")
        let run = try CLIRunner.run(["diff", "a.png", "b.png", "--diff", "d.png"], in: folder.url, addressSpaceLimitKB: 400_000)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdout == "100 of 33554432 pixels differ (0.0003%), 0 anti-aliased not counted\n", "\(run.stderr)")
        let diff = try StraightPNGDecoder.decode(try Data(contentsOf: folder.url.appendingPathComponent("d.png")))
        #expect(diff.width == 16384 && diff.height == 2048)
        #expect(diff.rgba(x: 1005, y: 1502) == RGBA(r: 255, g: 0, b: 0), "rows 1500…1504 hold only a's square")
        #expect(diff.rgba(x: 1005, y: 1512) == RGBA(r: 255, g: 0, b: 0), "rows 1510…1514 hold only b's square")
        #expect(diff.rgba(x: 1005, y: 1507) != RGBA(r: 255, g: 0, b: 0), "both squares cover row 1507")
    }
}
