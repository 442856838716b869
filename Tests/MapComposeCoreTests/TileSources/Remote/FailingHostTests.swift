import Foundation
import Logging
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// A tile server on 127.0.0.1 that hangs, resets every connection or truncates every body, with
/// the process's host health on: the host is given up after a few failures, its tiles become
/// transient misses drawn by fallback from what is at hand, the render ends by its deadline,
/// and the host is asked at most twice per tile in view (fallback included).
@Suite struct FailingHostTests {
    typealias F = RemoteTestFixture

    enum Fault: String, CaseIterable, Sendable {
        case hang, reset, truncate

        func answer(_ png: Data) -> TestHTTPServer.Answer {
            switch self {
            case .hang: return .delayed(60, .image(png))
            case .reset: return .reset
            case .truncate: return .truncated(body: png.prefix(40), declaredLength: png.count)
            }
        }
    }

    /// The layer with the default fallback rules (parents and children asked too), its tiles
    /// kept in the disk cache for an hour.
    static let source = "{type: xyz, url: \"{base}/tiles/{z}/{x}/{y}.png\", retries: 2, timeout: 2s}"


    static func writer() -> StaticMapWriter { StaticMapWriter(store: TileStore(), logger: Logger(label: "test")) }

    @Test(arguments: Fault.allCases)
    func aFailingHostIsGivenUpAndItsTilesAreDrawnFromWhatIsCached(_ fault: Fault) async throws {
        let png = F.png(F.red)
        let state = FaultSwitch()
        let fixture = try F { _ in
            state.isFailing ? fault.answer(png) : .image(png, headers: [("Cache-Control", "max-age=3600")])
        }
        // While the server works, a wider view at zoom 3 fills the disk cache.
        let output = fixture.folder.url.appendingPathComponent("map.png").path
        var wide = RenderRequest(style: try fixture.style(Self.source, remote: fixture.environment()),
                                 area: .center(LonLat(lon: 10, lat: 20), zoom: 3), width: 1024, height: 1024,
                                 output: output, attribution: false)
        wide.deadline = 600
        _ = try await Self.writer().write(wide)
        state.isFailing = true
        fixture.server.resetLog()
        // A new process: its own store and host health, the same disk cache.
        let environment = fixture.environment(breaker: true)
        var request = RenderRequest(style: try fixture.style(Self.source, remote: environment),
                                    area: .center(LonLat(lon: 10, lat: 20), zoom: 4.5), width: 512, height: 512,
                                    output: output, attribution: false)
        // Far off: the host is given up long before, whatever else runs beside this test.
        request.deadline = 600
        let report = try await Self.writer().write(request)
        #expect(FileManager.default.fileExists(atPath: output), "the map is written")
        #expect(!report.diagnostics.contains { $0.kind == .deadlinePassed }, "given up long before the deadline")
        let inView = report.layers[0].tilesRequested
        #expect(inView >= 9)
        #expect(fixture.server.requests.count <= 2 * inView,
                "\(fault): \(fixture.server.requests.count) requests for \(inView) tiles in view")
        #expect(environment.client.health.isRefusing(fixture.hostKey), "\(fault): the host is given up")
        #expect(report.layers[0].tilesFromParents == inView, "\(fault): every tile drawn from a cached parent")
        let problems = report.problems
        #expect(problems.contains { $0.detail.contains("not asked: it failed repeatedly") }, "\(problems)")
        #expect(problems.count <= 3, "one warning per cause, not one per tile: \(problems)")
    }

    /// With nothing cached to stand in, a map no tile could be had for is not written: the
    /// render fails with one line saying so.
    @Test func aMapNoTileCouldBeHadForIsAFailure() async throws {
        let fixture = try F { _ in .reset }
        var request = RenderRequest(style: try fixture.style(Self.source, remote: fixture.environment(breaker: true)),
                                    area: .center(LonLat(lon: 10, lat: 20), zoom: 4.5), width: 512, height: 512,
                                    output: fixture.folder.url.appendingPathComponent("blank.png").path,
                                    attribution: false)
        request.deadline = 600
        do {
            _ = try await Self.writer().write(request)
            Issue.record("a blank map was written")
        } catch {
            #expect(error.kind == .renderFailed)
            #expect(error.message.hasPrefix("no tile of any layer could be had ("), "\(error.message)")
            #expect(error.report?.status == .failed)
        }
        #expect(!FileManager.default.fileExists(atPath: request.output))
    }

    /// The deadline alone ends a render against a host that never answers, however many
    /// requests wait for their turn at it: requests still waiting then are not sent.
    @Test func theDeadlineEndsARenderEvenWhileTheHostIsStillAsked() async throws {
        let fixture = try F { _ in .delayed(60, .image(F.png(F.red))) }
        let style = try fixture.style(Self.source, remote: fixture.environment(breaker: false))
        var request = RenderRequest(style: style, area: .center(LonLat(lon: 10, lat: 20), zoom: 4.5), width: 512,
                                    height: 512, output: fixture.folder.url.appendingPathComponent("map.png").path,
                                    attribution: false)
        request.deadline = 3
        let report: RenderReport
        do {
            report = try await Self.writer().write(request)
        } catch {
            // Nothing could be had before the deadline: the report still tells.
            report = try #require(error.report)
        }
        let late = report.diagnostics.filter { $0.kind == .deadlinePassed }
        #expect(late.count == 1)
        #expect(late.first?.description.hasPrefix("the render's deadline of 3 s passed; ") == true, "\(late)")
        #expect(fixture.server.requests.count < report.layers[0].tilesRequested, "tiles still waiting were not asked")
    }

    /// A batch of 100 maps over a host that resets every connection: once the host is given up,
    /// no job asks it again.
    @Test func aBatchStopsAskingAFailingHost() async throws {
        let fixture = try F { _ in .reset }
        try fixture.folder.write("layers:\n  - {id: r, source: {type: xyz, url: \"\(fixture.server.baseURL)/tiles/{z}/{x}/{y}.png\", retries: 2, cache: false}}\n",
                                 to: "style.yaml")
        let rows = (0..<100).map { "{\"output\": \"m\($0).png\", \"center\": [\(Double($0 % 50) - 25), \($0 * 3 - 150)], \"zoom\": 5, \"size\": \"256x256\", \"style\": \"style.yaml\"}" }
        let manifest = try fixture.folder.write(rows.joined(separator: "\n") + "\n", to: "maps.jsonl")
        let environment = fixture.environment(breaker: true)
        let options = BatchRunner.Options(jobs: 4, outputFolder: fixture.folder.url.appendingPathComponent("out").path,
                                          remote: environment)
        let summary = try await BatchRunner(manifestPath: manifest.path, options: options, store: TileStore(),
                                            logger: Logger(label: "test")).run { _ in }
        #expect(summary.progress.written + summary.progress.failed == 100)
        // Five failures open the breaker; requests already in flight (4 per host) still end.
        #expect(fixture.server.requests.count <= 12, "\(fixture.server.requests.count) requests for 100 maps")
        #expect(environment.client.health.isRefusing(fixture.hostKey))
    }

    /// A host whose name does not resolve is given up at its first failure: no retry storm.
    @Test func anUnknownHostIsGivenUpAtOnce() async throws {
        let health = HostHealth()
        let client = TileHTTPClient(environment: [:], health: health)
        let settings = HTTPSettings(timeout: 5, retry: RetryPolicy(retries: 3, baseDelay: 0.01))
        let first = await client.get(EnvironmentReference("http://tiles.example.invalid/1/0/0.png"), settings: settings)
        guard case .failure(.unknownHost(let host)) = first else {
            Issue.record("expected an unknown host, got \(first)")
            return
        }
        #expect(host == "tiles.example.invalid")
        #expect(client.requestsSent == 1, "not retried")
        let second = await client.get(EnvironmentReference("http://tiles.example.invalid/1/1/0.png"), settings: settings)
        guard case .failure(.hostUnavailable) = second else {
            Issue.record("expected the host to be given up, got \(second)")
            return
        }
        #expect(client.requestsSent == 1)
    }

    /// After its cool-down a host is probed by one request; an answer brings it back.
    @Test func aHostIsProbedAfterItsCoolDownAndComesBack() async throws {
        let health = HostHealth(failureThreshold: 2, coolDown: .milliseconds(200))
        let start = ContinuousClock.now
        health.record("h:80", failure: "HTTP 503", now: start)
        #expect(health.admit("h:80", now: start) == nil, "one failure is not enough")
        health.record("h:80", failure: "HTTP 503", now: start)
        #expect(health.admit("h:80", now: start)?.reason == "HTTP 503")
        let later = start + .milliseconds(300)
        #expect(health.admit("h:80", now: later) == nil, "the probe")
        #expect(health.admit("h:80", now: later) != nil, "one probe at a time")
        health.record("h:80", failure: nil, now: later)
        #expect(health.admit("h:80", now: later) == nil)
        #expect(!health.isRefusing("h:80", now: later))
    }
}
