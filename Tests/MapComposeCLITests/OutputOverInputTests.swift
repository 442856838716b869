import Foundation
import MapComposeTestSupport
import Testing

/// No output lands on an input or on another output of the same run, however the paths are
/// spelt; a diff image on standard output has standard output to itself.
@Suite struct OutputOverInputTests {
    /// Two different PNGs of one size, copied into `folder` as a.png and b.png.
    func images(in folder: TemporaryFolder) throws {
        let pixelmatch = TestPaths.fixture("Pixelmatch")
        for (source, name) in [("aa-circles-a", "a.png"), ("aa-circles-b", "b.png")] {
            try FileManager.default.copyItem(at: pixelmatch.appendingPathComponent("\(source).png"),
                                             to: folder.url.appendingPathComponent(name))
        }
    }

    @Test("the diff image may not overwrite an input", arguments: ["a.png", "./b.png", "link.png"])
    func diffOverAnInput(_ output: String) throws {
        let folder = try TemporaryFolder()
        try images(in: folder)
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("link.png").path,
                                                   withDestinationPath: "a.png")
        let before = try Data(contentsOf: folder.url.appendingPathComponent("a.png"))
        let run = try CLIRunner.run(["diff", "a.png", "b.png", "--diff", output], in: folder.url)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("error: --diff: cannot write '\(output)': it is the same file as the"), "\(run.stderr)")
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("a.png")) == before)
    }

    @Test func aDiffImageOnStandardOutputHasItAlone() throws {
        let folder = try TemporaryFolder()
        try images(in: folder)
        let run = try CLIRunner.run(["diff", "a.png", "b.png", "--diff", "-"], in: folder.url)
        #expect(run.status == 1)
        #expect(run.stdoutData.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(run.stdoutData.suffix(8) == Data([0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]), "the PNG ends stdout")
        #expect(run.stderr.contains("pixels differ"), "\(run.stderr)")
    }

    @Test("a render's outputs may not overwrite its style or each other", arguments: [
        (["--style", "s.yaml", "--report", "s.yaml", "o.png"], "cannot write 's.yaml': it is the same file as the style s.yaml"),
        (["--report", "./o.png", "o.png"], "cannot write './o.png': it is also the image"),
        (["--style", "s.yaml", "s.yaml", "--format", "png"], "cannot write 's.yaml': it is the same file as the style s.yaml"),
    ])
    func renderOverItsInputs(_ arguments: [String], _ message: String) throws {
        let folder = try TemporaryFolder()
        let style = "layers:\n  - {id: s, source: {type: solid, color: \"#336699\"}}\n"
        try folder.write(style, to: "s.yaml")
        let run = try CLIRunner.run(["--center", "0,0", "--zoom", "1", "--size", "8x8"] + arguments, in: folder.url)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("error: \(message)"), "\(run.stderr)")
        #expect(try String(contentsOf: folder.url.appendingPathComponent("s.yaml"), encoding: .utf8) == style)
        #expect(try CLIRunner.contents(of: folder.url) == ["s.yaml"])
    }
}
