import Foundation
import MapComposeTestSupport
import Testing

/// Arguments parse through the one command they are for (quicker), yet help and mistakes read
/// exactly as the whole command tree writes them: the tool's name in every usage line, the
/// subcommands listed at the top level.
@Suite struct HelpAndParsingTests {
    @Test(arguments: [
        (["--help"], "OVERVIEW: Composite raster map tile layers into static map images."),
        (["-h"], "SUBCOMMANDS:"),
        (["out.png", "--help"], "USAGE: mapcompose render "),
        (["render", "--help"], "USAGE: mapcompose render "),
        (["diff", "--help"], "USAGE: mapcompose diff <first> <second>"),
        (["cache", "--help"], "USAGE: mapcompose cache "),
        (["validate", "-h"], "USAGE: mapcompose validate "),
    ])
    func helpComesFromTheWholeCommandTree(arguments: [String], expected: String) throws {
        let folder = try TemporaryFolder()
        let run = try CLIRunner.run(arguments, in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(expected), "\(arguments): \(run.stdout.prefix(300))")
        #expect(try CLIRunner.contents(of: folder.url).isEmpty)
    }

    @Test func mistakesNameTheToolAndTheSubcommand() throws {
        let folder = try TemporaryFolder()
        let diff = try CLIRunner.run(["diff", "a.png"], in: folder.url)
        #expect(diff.status == 2)
        #expect(diff.stderr.contains("Missing expected argument '<second>'"), "\(diff.stderr)")
        #expect(diff.stderr.contains("mapcompose diff"), "\(diff.stderr)")
        let render = try CLIRunner.run(["out.png", "--zoom", "x"], in: folder.url)
        #expect(render.status != 0)
        #expect(render.stderr.contains("--zoom"), "\(render.stderr)")
    }

    /// Every message starts "error:", ArgumentParser's own ones too.
    @Test func parserMistakesStartLikeEveryOtherError() throws {
        let folder = try TemporaryFolder()
        let diff = try CLIRunner.run(["diff", "a.png"], in: folder.url)
        #expect(diff.stderr.hasPrefix("error: Missing expected argument '<second>'"), "\(diff.stderr)")
    }

    /// With no arguments: how to make a first map, and the render options, which are what a
    /// newcomer wants.
    @Test func noArgumentsShowAFirstMapAndTheRenderOptions() throws {
        let folder = try TemporaryFolder()
        let run = try CLIRunner.run([], in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("error: no output file: e.g. mapcompose --center 51.5,-0.12 --zoom 12 out.png"), "\(run.stderr)")
        #expect(run.stderr.contains("--center") && run.stderr.contains("--zoom") && run.stderr.contains("--style"))
        #expect(run.stderr.contains("USAGE: mapcompose render"), "\(run.stderr.prefix(600))")
    }
}
