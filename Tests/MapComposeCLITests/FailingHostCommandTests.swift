import Foundation
import MapComposeTestSupport
import Testing
import MapComposeCore

/// `mapcompose` against a tile server on 127.0.0.1 that never answers, resets every connection
/// or truncates every body (`timeout: 2, retries: 2`, as users write): the process ends by its
/// deadline with the map written, the host is asked at most twice per tile in view (fallback
/// included), and each cause is one warning line.
@Suite struct FailingHostCommandTests {
    enum Fault: String, CaseIterable {
        case hang, reset, truncate
    }


    @Test(arguments: Fault.allCases)
    func aFailingHostIsGivenUpAndTheMapIsDrawnFromTheCache(_ fault: Fault) throws {
        let png = try TileFixtures.solidPNG(RGBA(r: 200, g: 90, b: 40))
        let state = FaultSwitch()
        let server = try TestHTTPServer { _ in
            guard state.isFailing else { return .image(png, headers: [("Cache-Control", "max-age=3600")]) }
            switch fault {
            case .hang: return .delayed(60, .image(png))
            case .reset: return .reset
            case .truncate: return .truncated(body: png.prefix(40), declaredLength: png.count)
            }
        }
        let folder = try TemporaryFolder()
        try folder.write("""
            layers:
              - id: remote
                source: {type: xyz, url: "\(server.baseURL)/tiles/{z}/{x}/{y}.png", timeout: 2, retries: 2}
            """, to: "remote.yaml")
        let cache = ["--cache-dir", folder.url.appendingPathComponent("cache").path]
        let warm = try CLIRunner.run(["--style", "remote.yaml", "--center", "20,10", "--zoom", "3", "--size", "1024x1024",
                                      "wide.png"] + cache, in: folder.url)
        #expect(warm.status == 0, "\(warm.stderr)")
        state.isFailing = true
        server.resetLog()
        let started = Date()
        let result = try CLIRunner.run(["--style", "remote.yaml", "--center", "20,10", "--zoom", "4.5", "--size", "512x512",
                                        "--deadline", "10s", "--report", "report.json", "map.png"] + cache, in: folder.url)
        let seconds = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(seconds < 20, "\(fault): \(seconds) s for a deadline of 10 s")
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("map.png").path))
        let report = try JSONDecoder().decode(RenderReport.self,
                                              from: try Data(contentsOf: folder.url.appendingPathComponent("report.json")))
        let inView = report.layers[0].tilesRequested
        #expect(report.layers[0].tilesFromParents == inView, "drawn from the cached parents")
        #expect(server.requests.count <= 2 * inView, "\(fault): \(server.requests.count) requests for \(inView) tiles in view")
        let warnings = result.stderrLines.filter { $0.hasPrefix("warning:") }
        #expect(!warnings.isEmpty && warnings.count <= 3, "one line per cause: \(warnings)")
        #expect(warnings.contains { $0.contains("not asked: it failed repeatedly") }, "\(warnings)")
    }

    /// A server that cannot be reached and nothing cached: exit 1, one error line, no image.
    @Test func aMapNoTileCouldBeHadForExits1() throws {
        let server = try TestHTTPServer { _ in .status(200) }
        let folder = try TemporaryFolder()
        try folder.write("""
            layers:
              - id: remote
                source: {type: xyz, url: "\(server.baseURL)/tiles/{z}/{x}/{y}.png"}
            """, to: "remote.yaml")
        server.shutdown()
        let result = try CLIRunner.run(["--style", "remote.yaml", "--center", "20,10", "--zoom", "4", "--no-cache", "map.png"],
                                       in: folder.url)
        #expect(result.status == 1)
        let errors = result.stderrLines.filter { $0.hasPrefix("error:") }
        #expect(errors.count == 1 && errors[0].hasPrefix("error: no tile of any layer could be had ("), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("map.png").path))
    }
}
