import Foundation
import MapComposeTestSupport
import MapComposeCore
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

    /// A render interrupted while it fills the disk cache leaves no temporary entry there.
    @Test func aSignalWhileTheDiskCacheIsWrittenLeavesNoTemporaryEntry() throws {
        let png = try TileFixtures.solidPNG(RGBA(r: 20, g: 120, b: 60))
        let server = try TestHTTPServer { _ in .delayed(0.05, .image(png, headers: [("Cache-Control", "max-age=3600")])) }
        let folder = try TemporaryFolder()
        try folder.write("""
            layers:
              - id: remote
                source: {type: xyz, url: "\(server.baseURL)/tiles/{z}/{x}/{y}.png", concurrency: 16}
            """, to: "remote.yaml")
        let cache = folder.url.appendingPathComponent("cache")
        for round in 0..<5 {
            // Signalled once this render has written entries of its own (its handler is set up
            // by then), while it still writes more.
            let before = Self.entries(in: cache).count
            let running = try CLIRunner.start(["--style", "remote.yaml", "--center", "\(round * 10),0", "--zoom", "9",
                                               "--size", "4096x4096", "--cache-dir", cache.path, "map\(round).png"],
                                              in: folder.url)
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, running.process.isRunning, Self.entries(in: cache).count < before + 12 { usleep(2_000) }
            kill(running.process.processIdentifier, SIGINT)
            let run = running.finish()
            #expect(run.status == 130, "round \(round): interrupted while it wrote the cache (\(run.status))")
            let temporary = Self.entries(in: cache).filter { $0.hasSuffix(".tmp") }
            #expect(temporary.isEmpty, "round \(round): \(temporary)")
        }
    }

    /// Every file under `folder`, as relative paths.
    static func entries(in folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }) ?? []
    }

    /// WebP's size limit is known from the arguments: refused before any rendering.
    @Test func aWebPOverItsSizeLimitIsRefusedBeforeRendering() throws {
        let folder = try TemporaryFolder()
        let run = try CLIRunner.run(["--center", "0,0", "--zoom", "5", "--size", "16384x100", "big.webp"], in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderrLines.first?.hasPrefix("error: a WebP image is at most 16383 pixels a side; this one would be 16384x100") == true,
                "\(run.stderr)")
        #expect(try CLIRunner.contents(of: folder.url).isEmpty)
    }
}
