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
                + "opacity 1.00, src-over, \(report.layers[0].tilesDrawn) tiles drawn, \(report.layers[0].tilesMissing) missing")
        #expect(lines[report.layers.count].hasPrefix("info o.png: 64x64 px at zoom 3.0, "))
        #expect(quiet.all.isEmpty, "info lines stay out below --verbose")
    }

    @Test func theLayerSummarySaysWhatStoodInForMissingTiles() throws {
        var layer = try JSONDecoder().decode(LayerReport.self, from: Data("""
            {"id": "base", "source": "xyz", "grid": "webmercator-256", "visible": true, "level": 6, "levels": [5, 6],
             "crossfadeWeight": 0.25, "nativeLevels": [0, 6], "opacity": 0.5, "blend": "multiply", "tilesRequested": 20,
             "tilesDrawn": 12, "tilesMissing": 8, "tilesAbsent": 8, "tilesFromParents": 5, "tilesFromChildren": 2,
             "tilesOutsideBounds": 4, "tiles": []}
            """.utf8))
        #expect(RenderLog.summary(of: layer) == "layer 'base' (xyz): levels 5+6 (crossfade 0.25), opacity 0.50, multiply, "
                + "12 tiles drawn, 8 missing, 5 from parents, 2 from children, 4 outside bounds")
        layer.skipped = "faded out at zoom 3"
        #expect(RenderLog.summary(of: layer) == "layer 'base' (xyz): skipped: faded out at zoom 3")
    }
}
