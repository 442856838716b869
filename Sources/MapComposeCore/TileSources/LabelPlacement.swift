import Foundation

/// Chooses which point labels a GeoJSON source shows at each level so that no two overlap.
///
/// Placement is decided for the whole world at once, in feature order, rather than per tile,
/// so every tile agrees on it and a label is never half drawn at a tile edge.
final class LabelPlacement: @unchecked Sendable {
    /// A label's anchor point (zoom-0 world pixels) and its text width in tile pixels.
    private struct Candidate {
        let feature: Int
        let anchor: WorldPixel
        let width: Double
    }

    private let candidates: [Candidate]
    private let symbolizer: FeatureSymbolizer
    private let lock = NSLock()
    private var placedByLevel: [Int: [Int]] = [:]

    init(features: [ProjectedFeature], symbolizer: FeatureSymbolizer) {
        self.symbolizer = symbolizer
        let labelled = features.indices.filter { features[$0].label != nil && !features[$0].points.isEmpty }
        let widths = Self.measure(labelled.map { features[$0].label! }, size: symbolizer.labelSize)
        candidates = zip(labelled, widths).map { Candidate(feature: $0, anchor: features[$0].points[0], width: $1) }
    }

    /// Indices of the features whose labels are drawn at `level`, in drawing order.
    func placed(atLevel level: Int) -> [Int] {
        lock.lock()
        defer { lock.unlock() }
        if let cached = placedByLevel[level] { return cached }
        let scale = exp2(Double(level))
        var kept: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []
        var result: [Int] = []
        for candidate in candidates {
            let box = labelBox(candidate, scale: scale)
            let gap = 2.0
            let clear = kept.allSatisfy { other in
                box.x1 + gap <= other.x0 || other.x1 + gap <= box.x0 || box.y1 + gap <= other.y0 || other.y1 + gap <= box.y0
            }
            if clear {
                kept.append(box)
                result.append(candidate.feature)
            }
        }
        placedByLevel[level] = result
        return result
    }

    /// Where a label is drawn relative to its point, in tile pixels: the text starts this far right.
    var textOffset: Double { symbolizer.radius + 3 }

    private func labelBox(_ c: Candidate, scale: Double) -> (x0: Double, y0: Double, x1: Double, y1: Double) {
        let x = c.anchor.x * scale, y = c.anchor.y * scale
        let size = symbolizer.labelSize
        let baseline = y + size / 3
        return (x - symbolizer.radius, baseline - size * 0.8, x + textOffset + c.width, baseline + size * 0.25)
    }

    /// Text widths in the label font; a generous estimate if Cairo cannot measure.
    private static func measure(_ texts: [String], size: Double) -> [Double] {
        guard let image = try? RasterImage(width: 1, height: 1), let context = try? DrawingContext(image) else {
            return texts.map { Double($0.count) * size * 0.65 }
        }
        context.setFont(size: size)
        let widths = texts.map { context.measure($0).width }
        guard (try? context.finish("measure labels")) != nil else { return texts.map { Double($0.count) * size * 0.65 } }
        return widths
    }
}
