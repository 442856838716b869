import Foundation
import MapComposeTestSupport
import Testing

/// `mapcompose serve` runs the server program, `mapcompose-serve`, found beside `mapcompose`,
/// with its arguments; without it, it says where it looked and how to get it.
@Suite struct ServeHandoffTests {
    @Test func serveHelpIsTheServersOwn() throws {
        let folder = try TemporaryFolder()
        let outcome = try CLIRunner.run(["serve", "--help"], in: folder.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("USAGE: mapcompose serve") && outcome.stdout.contains("--config")
                && outcome.stdout.contains("--port"), "\(outcome.stdout)")
        let bad = try CLIRunner.run(["serve", "--port", "70000", "--style", "a=default"], in: folder.url)
        #expect(bad.status == 2 && bad.stderr == "error: --port 70000: expected 0…65535\n", "\(bad.stderr)")
    }

    @Test func withoutTheServerProgramServeSaysWhereItLooked() throws {
        let folder = try TemporaryFolder()
        let alone = folder.url.appendingPathComponent("mapcompose")
        try FileManager.default.copyItem(at: CLIRunner.binary, to: alone)
        let outcome = try CLIRunner.Running(executable: alone, arguments: ["serve", "--style", "a=default"],
                                            in: folder.url).finish()
        #expect(outcome.status == 2)
        let expected = "error: mapcompose serve runs mapcompose-serve, which cannot be started from "
            + "\(folder.url.resolvingSymlinksInPath().path)/mapcompose-serve: No such file or directory; `make build` builds it"
        #expect(outcome.stderr.hasPrefix(expected), "\(outcome.stderr)")
    }
}
