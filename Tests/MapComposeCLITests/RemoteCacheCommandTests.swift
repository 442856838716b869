import Foundation
import MapComposeTestSupport
import Testing
import MapComposeCore

/// The disk cache from the command line: several processes filling one cache folder at once, a
/// process killed mid-run, offline renders, and `mapcompose cache`.
@Suite(.serialized) struct RemoteCacheCommandTests {
    let server: TestHTTPServer
    let folder: TemporaryFolder
    var cacheDir: String { folder.url.appendingPathComponent("cache").path }

    init() throws {
        let png = try TileFixtures.solidPNG(RGBA(r: 200, g: 90, b: 40))
        server = try TestHTTPServer { _ in .delayed(0.01, .image(png, headers: [("Cache-Control", "max-age=86400")])) }
        folder = try TemporaryFolder()
        try folder.write("""
            layers:
              - id: remote-tiles
                source: {type: xyz, url: "\(server.baseURL)/tiles/{z}/{x}/{y}.png", concurrency: 8}
            """, to: "remote.yaml")
    }

    private func render(_ center: String, zoom: Int, output: String, extra: [String] = []) throws -> CLIRunner.Running {
        try CLIRunner.start(["--style", "remote.yaml", "--center", center, "--zoom", String(zoom), "--size", "800x600",
                             "--cache-dir", cacheDir, "--no-attribution", output] + extra, in: folder.url)
    }

    /// Every entry file in the cache folder is whole.
    private func allEntriesWhole() throws -> (entries: Int, torn: Int) {
        let names = FileManager.default.enumerator(atPath: cacheDir)?.compactMap { $0 as? String } ?? []
        var entries = 0, torn = 0
        for name in names where name.hasSuffix(".tile") && !(name as NSString).lastPathComponent.hasPrefix(".") {
            entries += 1
            if CacheEntry(decoding: try Data(contentsOf: URL(fileURLWithPath: cacheDir).appendingPathComponent(name))) == nil { torn += 1 }
        }
        return (entries, torn)
    }

    @Test func threeProcessesShareOneCacheAndAKilledOneLeavesItUsable() throws {
        let views = [("40,-3", 5), ("42,2", 5), ("44,-1", 5)]
        let runs = try views.enumerated().map { try render($1.0, zoom: $1.1, output: "v\($0).png") }
        for run in runs.map({ $0.finish() }) { #expect(run.status == 0, "\(run.stderr)") }
        let requested = server.requests.count
        #expect(requested > 0)
        var check = try allEntriesWhole()
        #expect(check.entries > 0 && check.torn == 0)
        // Killed mid-run: what it wrote is whole, and the next runs use the cache without errors.
        let killed = try render("20,30", zoom: 7, output: "killed.png", extra: ["--size", "2000x2000"])
        let deadline = Date().addingTimeInterval(20)
        while server.requests.count < requested + 30, Date() < deadline { usleep(5_000) }
        kill(killed.process.processIdentifier, SIGKILL)
        _ = killed.finish()
        check = try allEntriesWhole()
        #expect(check.torn == 0, "\(check.torn) torn entries")
        server.resetLog()
        let offline = try views.enumerated().map { try render($1.0, zoom: $1.1, output: "o\($0).png", extra: ["--offline"]) }
        for run in offline.map({ $0.finish() }) {
            #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        }
        #expect(server.requests.isEmpty, "offline renders send nothing")
        let resumed = try render("20,30", zoom: 7, output: "again.png", extra: ["--size", "2000x2000"]).finish()
        #expect(resumed.status == 0 && resumed.stderr.isEmpty, "\(resumed.stderr)")
    }

    @Test func cacheStatsPruneAndClearByLayer() throws {
        #expect(try render("10,10", zoom: 4, output: "a.png").finish().status == 0)
        let stats = try CLIRunner.run(["cache", "stats", "--cache-dir", cacheDir], in: folder.url)
        #expect(stats.status == 0)
        #expect(stats.stdout.contains("layer 'remote-tiles'") && stats.stdout.contains("entries"), "\(stats.stdout)")
        #expect(stats.stdout.contains("source: xyz-url:\(server.baseURL)/tiles/{z}/{x}/{y}.png"))
        let prune = try CLIRunner.run(["cache", "prune", "--cache-dir", cacheDir, "--max-size", "1k"], in: folder.url)
        #expect(prune.status == 0 && prune.stdout.contains("removed"), "\(prune.stdout)\(prune.stderr)")
        #expect(try allEntriesWhole().entries <= 1)
        let unknown = try CLIRunner.run(["cache", "clear", "--cache-dir", cacheDir, "--layer", "nope"], in: folder.url)
        #expect(unknown.status == 2 && unknown.stderr.contains("no cache of layer 'nope'") && unknown.stderr.contains("remote-tiles"))
        let clear = try CLIRunner.run(["cache", "clear", "--cache-dir", cacheDir, "--layer", "remote-tiles"], in: folder.url)
        #expect(clear.status == 0 && clear.stdout.contains("cleared"))
        #expect(try allEntriesWhole().entries == 0)
    }

    @Test func theDefaultCacheFolderIsUnderXDGCacheHomeElseHome() throws {
        let xdg = folder.url.appendingPathComponent("xdg"), home = folder.url.appendingPathComponent("home")
        func render(with variables: [String: String], output: String) throws -> CLIRunner.Outcome {
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_CACHE_HOME"] = nil
            environment.merge(variables) { $1 }
            return try CLIRunner.start(["--style", "remote.yaml", "--center", "10,10", "--zoom", "4", "--size", "300x200",
                                        "--no-attribution", output], in: folder.url, environment: environment).finish()
        }
        func entries(under root: URL) -> Int {
            (FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []).count { $0.hasSuffix(".tile") }
        }
        let withXDG = try render(with: ["XDG_CACHE_HOME": xdg.path], output: "xdg.png")
        #expect(withXDG.status == 0, "\(withXDG.stderr)")
        #expect(entries(under: xdg.appendingPathComponent("mapcompose")) > 0)
        let withHome = try render(with: ["HOME": home.path, "XDG_CACHE_HOME": "relative/ignored"], output: "home.png")
        #expect(withHome.status == 0, "\(withHome.stderr)")
        #expect(entries(under: home.appendingPathComponent(".cache/mapcompose")) > 0)
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("relative").path))
    }

    @Test func offlineWithoutACacheIsRefused() throws {
        let run = try render("0,0", zoom: 2, output: "x.png", extra: ["--offline", "--no-cache"]).finish()
        #expect(run.status == 2 && run.stderr.contains("--offline"))
    }
}
