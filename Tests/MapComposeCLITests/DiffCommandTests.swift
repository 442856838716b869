import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// `mapcompose diff`: pixelmatch's counts, the diff image, and exit 0 / 1 / 2.
@Suite struct DiffCommandTests {
    static let pixelmatch = TestPaths.fixture("Pixelmatch")

    func pair(_ name: String) -> [String] {
        [Self.pixelmatch.appendingPathComponent("\(name)-a.png").path, Self.pixelmatch.appendingPathComponent("\(name)-b.png").path]
    }

    /// A 70-byte PNG whose text chunk claims 128 MiB is refused with a message (the memory
    /// that takes is measured by `make bench`, scripts/bench/stress.sh).
    @Test func aChunkLongerThanTheFileIsRefused() throws {
        let file = TestPaths.fixture("FuzzRegressions").appendingPathComponent("tile-decoder/text-chunk-claiming-128-mib.png").path
        let folder = try TemporaryFolder()
        let result = try CLIRunner.run(["diff", file, file], in: folder.url)
        #expect(result.status == 2)
        #expect(result.stderr.contains("data ends early"), "\(result.stderr)")
    }

    @Test func identicalImagesExit0() throws {
        let folder = try TemporaryFolder()
        let a = pair("aa-circles")[0]
        let run = try CLIRunner.run(["diff", a, a], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "0 of 16384 pixels differ (0.0000%), 0 anti-aliased not counted\n")
    }

    @Test func differencesExit1UnlessAllowedAndCountAsPixelmatchDoes() throws {
        let folder = try TemporaryFolder()
        let run = try CLIRunner.run(["diff"] + pair("aa-text") + ["--diff", "d.png"], in: folder.url)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("101 of 10240 pixels differ (0.9863%)"), "PyPI pixelmatch counts 101: \(run.stdout)")
        #expect(run.stderr.isEmpty)
        let diff = try StraightPNGDecoder.decode(file: folder.url.appendingPathComponent("d.png").path)
        let library = try ImageDiff.compare(try StraightPNGDecoder.decode(file: pair("aa-text")[0]),
                                            try StraightPNGDecoder.decode(file: pair("aa-text")[1]), makeDiffImage: true)
        #expect(diff == library.diffImage, "the written diff image is the library's")
        #expect(try CLIRunner.run(["diff"] + pair("aa-text") + ["--allowed", "0.01"], in: folder.url).status == 0)
        let strict = try CLIRunner.run(["diff"] + pair("aa-text") + ["--include-aa"], in: folder.url)
        #expect(strict.status == 1)
        #expect(strict.stdout.hasPrefix("260 of 10240"), "PyPI pixelmatch with includeAA counts 260: \(strict.stdout)")
    }

    @Test("unreadable or mismatched input exits 2", arguments: [
        (["other-size"], "is 128x128 but"),
        (["garbage"], "garbage.png: corrupt PNG data: not a PNG file"),
        (["truncated"], "truncated.png: corrupt PNG data:"),
        (["empty"], "empty.png: the file is empty, not a PNG image"),
        (["missing"], "missing.png: cannot read the file"),
        (["--threshold", "2"], "--threshold 2.0: expected a number from 0 to 1"),
        (["--allowed", "nan"], "--allowed nan"),
    ])
    func badInputExits2(_ arguments: [String], _ message: String) throws {
        let folder = try TemporaryFolder()
        try folder.write(try TileFixtures.solidPNG(.white, size: 16), to: "other-size.png")
        try folder.write("not an image", to: "garbage.png")
        try folder.write(try TileFixtures.truncatedPNG(size: 128), to: "truncated.png")
        try folder.write(Data(), to: "empty.png")
        let a = pair("aa-circles")[0]
        let second = arguments[0].hasPrefix("--") ? a : folder.url.appendingPathComponent("\(arguments[0]).png").path
        let options = arguments[0].hasPrefix("--") ? arguments : []
        let run = try CLIRunner.run(["diff", a, second, "--diff", "d.png"] + options, in: folder.url)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("d.png").path))
    }
}
