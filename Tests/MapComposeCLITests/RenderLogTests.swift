import Foundation
import Logging
@testable import MapComposeCLI
import MapComposeCore
import Testing

/// `RenderLog` writes through the logger it is given and never sets up logging itself.
@Suite struct RenderLogTests {
    /// Keeps what a logger was asked to write, at or above its level.
    final class Captured: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []

        var all: [String] { lock.withLock { lines } }

        func logger(level: Logger.Level) -> Logger {
            var logger = Logger(label: "test") { _ in Handler(captured: self) }
            logger.logLevel = level
            return logger
        }

        struct Handler: LogHandler {
            let captured: Captured
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) {
                captured.lock.withLock { captured.lines.append("\(event.level) \(event.message)") }
            }
        }
    }

    @Test func logsEveryLayerThroughTheGivenLoggerAsOftenAsAsked() async throws {
        let style = try StyleLoader.load(nameOrPath: "default")
        let viewport = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 3, width: 64, height: 64)
        let report = try await MapRenderer(style: style).render(viewport).report
        let verbose = Captured(), quiet = Captured()
        for _ in 0..<2 {
            RenderLog.log(report, output: "o.png", to: verbose.logger(level: .info))
            RenderLog.log(report, output: "-", to: quiet.logger(level: .warning))
        }
        let lines = verbose.all
        #expect(lines.count == 2 * (report.layers.count + 1))
        #expect(lines.allSatisfy { $0.hasPrefix("info ") })
        #expect(lines.first == "info layer '\(report.layers[0].id)' (\(report.layers[0].source)): level \(report.layers[0].level ?? -1), "
                + "\(report.layers[0].tilesDrawn) tiles drawn, \(report.layers[0].tilesMissing) missing")
        #expect(lines[report.layers.count].hasPrefix("info o.png: 64x64 px at zoom 3.0, "))
        #expect(quiet.all.isEmpty, "info lines stay out below --verbose")
    }
}
