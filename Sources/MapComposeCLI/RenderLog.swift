import Foundation
import Logging
import MapComposeCore

/// `--verbose` output: one line per layer and one for the whole render, at level info.
enum RenderLog {
    static func log(_ report: RenderReport, output: String, to logger: Logger) {
        for layer in report.layers {
            if let skipped = layer.skipped {
                logger.info("layer '\(layer.id)' (\(layer.source)): skipped: \(skipped)")
            } else {
                logger.info("layer '\(layer.id)' (\(layer.source)): level \(layer.level.map(String.init) ?? "-"), \(layer.tilesDrawn) tiles drawn, \(layer.tilesMissing) missing")
            }
        }
        let name = output == OutputTarget.standardOutputName ? "standard output" : output
        logger.info("\(name): \(report.pixels[0])x\(report.pixels[1]) px at zoom \(report.zoom), \(report.tilesDecoded) tiles decoded, \(String(format: "%.1f", report.durationMs)) ms")
    }
}
