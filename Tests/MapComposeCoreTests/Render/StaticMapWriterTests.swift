import Foundation
import Logging
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// The library call behind `render` and batch jobs: render, encode, write atomically, report.
@Suite struct StaticMapWriterTests {
    static let writer = StaticMapWriter(store: TileStore(), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))

    private func request(_ style: MapStyle, in folder: TemporaryFolder, strict: Bool = false) -> RenderRequest {
        RenderRequest(style: style, area: .center(LonLat(lon: 0, lat: 0), zoom: 1), width: 256, height: 256,
                      output: folder.url.appendingPathComponent("map.png").path,
                      reportPath: folder.url.appendingPathComponent("report.json").path, strict: strict)
    }

    @Test func writesTheImageAndAStableSortedReport() async throws {
        let folder = try TemporaryFolder()
        let style = try RenderHelpers.style("layers:\n  - {id: s, source: {type: solid, color: \"#336699\"}}\n", in: folder)
        let first = try await Self.writer.write(request(style, in: folder))
        #expect(first.status == .ok && first.error == nil)
        let image = try TileDecoder.decode(try Data(contentsOf: folder.url.appendingPathComponent("map.png")))
        #expect(image.width == 256 && image.rgba(x: 10, y: 10) == RGBA(r: 0x33, g: 0x66, b: 0x99))
        let text1 = try String(contentsOf: folder.url.appendingPathComponent("report.json"), encoding: .utf8)
        _ = try await Self.writer.write(request(style, in: folder))
        let text2 = try String(contentsOf: folder.url.appendingPathComponent("report.json"), encoding: .utf8)
        func withoutDuration(_ text: String) -> String {
            text.split(separator: "\n").filter { !$0.contains("\"durationMs\"") }.joined(separator: "\n")
        }
        #expect(withoutDuration(text1) == withoutDuration(text2))
        #expect(text1.contains("\"status\" : \"ok\""))
        let keys = text1.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { String($0.split(separator: "\"")[1]) }
        #expect(keys == keys.sorted(), "top-level keys are sorted")
    }

    @Test func aStrictFailureWritesNoImageAndAReportThatSaysItFailed() async throws {
        let folder = try TemporaryFolder()
        try folder.write(try TileFixtures.truncatedPNG(), to: "t/1/0/0.png")
        let style = try RenderHelpers.style("layers:\n  - {id: t, source: {type: xyz, path: \"t/{z}/{x}/{y}.png\"}}\n", in: folder)
        do {
            try await Self.writer.write(request(style, in: folder, strict: true))
            Issue.record("a strict render with a corrupt tile must fail")
        } catch {
            #expect(error.kind == .tileProblems)
            #expect(error.message == "1 tile problem; no image written")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("map.png").path))
        let report = try JSONDecoder().decode(RenderReport.self, from: try Data(contentsOf: folder.url.appendingPathComponent("report.json")))
        #expect(report.status == .failed)
        #expect(report.error == "1 tile problem; no image written")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func aBadAreaFailsBeforeAnyFileIsCreated() async throws {
        let folder = try TemporaryFolder()
        let style = try RenderHelpers.style("layers:\n  - {id: s, source: {type: solid}}\n", in: folder)
        var bad = request(style, in: folder)
        bad.area = .center(LonLat(lon: 0, lat: 0), zoom: 40)
        await #expect(throws: RenderFailure.self) { try await Self.writer.write(bad) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["style.yaml"])
    }
}
