import Foundation
import Logging
import MapComposeCore

/// `--verbose` output: one line per layer on standard error, through swift-log.
enum RenderLog {
    static func log(_ report: RenderReport, output: String) {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        let logger = Logger(label: "mapcompose")
        for layer in report.layers {
            if let skipped = layer.skipped {
                logger.info("layer '\(layer.id)' (\(layer.source)): skipped: \(skipped)")
            } else {
                logger.info("layer '\(layer.id)' (\(layer.source)): level \(layer.level.map(String.init) ?? "-"), \(layer.tilesDrawn) tiles drawn, \(layer.tilesMissing) missing")
            }
        }
        logger.info("\(output): \(report.pixels[0])x\(report.pixels[1]) px at zoom \(report.zoom), \(report.tilesDecoded) tiles decoded, \(String(format: "%.1f", report.durationMs)) ms")
    }
}
