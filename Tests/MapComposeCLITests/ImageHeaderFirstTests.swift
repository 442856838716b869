import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// `diff` and `check` read image sizes from the PNG headers before decoding anything: a small
/// file claiming 16384 × 16384 pixels is a size mismatch or over the limit, never decoded.
@Suite struct ImageHeaderFirstTests {
    static let bomb = TileFixtures.pngHeader(width: 16384, height: 16384) + Data(repeating: 0, count: 64)

    @Test func diffReportsDifferentSizesFromTheHeaders() throws {
        let folder = try TemporaryFolder()
        try folder.write(Self.bomb, to: "huge.png")
        try folder.write(try TileFixtures.solidPNG(.white, size: 16), to: "small.png")
        let run = try CLIRunner.run(["diff", "huge.png", "small.png", "--diff", "d.png"], in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderr == "error: huge.png is 16384x16384 but small.png is 16x16: only images of the same size compare\n",
                "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("d.png").path))
    }

    @Test func diffRefusesImagesOverThePixelLimitAndReadsABombByRows() throws {
        let folder = try TemporaryFolder()
        try folder.write(Self.bomb, to: "a.png")
        try folder.write(Self.bomb, to: "b.png")
        let run = try CLIRunner.run(["diff", "a.png", "b.png", "--max-pixels", "67108864"], in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderr.contains("a.png and b.png are 16384x16384, 268435456 pixels, over the limit of 67108864: "
                                    + "raise --max-pixels to compare them"), "\(run.stderr)")
        // Within the default limit the rows are read a band at a time: the bomb's missing data
        // is found in its first band, in a few megabytes.
        let streamed = try CLIRunner.run(["diff", "a.png", "b.png"], in: folder.url, addressSpaceLimitKB: 400_000)
        #expect(streamed.status == 2)
        #expect(streamed.stderr.contains("a.png: corrupt PNG data"), "\(streamed.stderr)")
    }

    @Test func checkReportsAnExpectedImageOfAnotherSizeWithoutDecodingIt() throws {
        let folder = try TemporaryFolder()
        try folder.write("style: default\ncenter: [10, 0]\nzoom: 2\nsize: 8x8\n", to: "suite/huge/case.yaml")
        try folder.write(Self.bomb, to: "suite/huge/expected.png")
        let run = try CLIRunner.run(["check", "suite"], in: folder.url)
        #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("FAILED huge: the render is 8x8 but the expected image is 16384x16384"),
                "\(run.stdout) \(run.stderr)")
    }
}
