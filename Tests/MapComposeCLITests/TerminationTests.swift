import Foundation
import MapComposeTestSupport
import Testing

/// An interrupted, terminated or failed render leaves no temporary file behind.
@Suite(.serialized) struct TerminationTests {
    @Test("a signal during a render removes the temporary files", arguments: [(Int32(SIGINT), Int32(130)), (Int32(SIGTERM), Int32(143))])
    func signalRemovesTemporaryFiles(_ signal: Int32, _ expectedStatus: Int32) throws {
        let folder = try TemporaryFolder()
        let running = try CLIRunner.start(["--center", "0,0", "--zoom", "8", "--size", "8192x8192",
                                           "--report", "r.json", "big.png"], in: folder.url)
        let deadline = Date().addingTimeInterval(60)
        var names: [String] = []
        while Date() < deadline, running.process.isRunning {
            names = try CLIRunner.contents(of: folder.url)
            if names.count == 2 { break }
            usleep(5_000)
        }
        #expect(names.count == 2 && names.allSatisfy { $0.hasPrefix(".") && $0.hasSuffix(".tmp") },
                "both temporary files exist before the signal: \(names)")
        kill(running.process.processIdentifier, signal)
        let run = running.finish()
        #expect(run.reason == .exit && run.status == expectedStatus, "\(run.reason) \(run.status) \(run.stderr)")
        #expect(try CLIRunner.contents(of: folder.url).isEmpty)
    }

    @Test func failedWriteLeavesNoTemporaryFile() throws {
        let folder = try TemporaryFolder()
        let run = try CLIRunner.run(["--center", "0,0", "--zoom", "1", "o.png"], in: folder.url, fileSizeLimitBlocks: 8)
        #expect(run.status == 1)
        #expect(run.stderrLines == ["error: cannot write 'o.png': File too large"])
        #expect(try CLIRunner.contents(of: folder.url).isEmpty)
    }
}
