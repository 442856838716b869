import Foundation
import Logging
import MapComposeCore

/// `--verbose` output: one line per layer and one for the whole render, at level info.
enum RenderLog {
    static func log(_ report: RenderReport, output: String, to logger: Logger) {
        for layer in report.layers {
            logger.info("\(summary(of: layer))")
        }
        let name = output == OutputTarget.standardOutputName ? "standard output" : output
        logger.info("\(name): \(report.pixels[0])x\(report.pixels[1]) px at zoom \(report.zoom), \(report.tilesDecoded) tiles decoded, \(String(format: "%.1f", report.durationMs)) ms")
    }

    /// One line per layer: skipped and why, or level(s), opacity, and what stood in for missing tiles.
    static func summary(of layer: LayerReport) -> String {
        let head = "layer '\(layer.id)' (\(layer.source))"
        if let skipped = layer.skipped { return "\(head): skipped: \(skipped)" }
        let levels = layer.levels.count > 1
            ? "levels \(layer.levels.map(String.init).joined(separator: "+")) (crossfade \(layer.crossfadeWeight.map { String(format: "%.2f", $0) } ?? "-"))"
            : "level \(layer.level.map(String.init) ?? "-")"
        var parts = ["\(levels), opacity \(String(format: "%.2f", layer.opacity)), \(layer.blend)",
                     "\(layer.tilesDrawn) tiles drawn", "\(layer.tilesMissing) missing"]
        if layer.tilesFromParents > 0 { parts.append("\(layer.tilesFromParents) from parents") }
        if layer.tilesFromChildren > 0 { parts.append("\(layer.tilesFromChildren) from children") }
        if layer.tilesOutsideBounds > 0 { parts.append("\(layer.tilesOutsideBounds) outside bounds") }
        parts += layer.sourceNotes ?? []
        return "\(head): " + parts.joined(separator: ", ")
    }
}
