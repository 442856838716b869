import Foundation

/// Chooses which point labels a GeoJSON source shows at each scale so that no two overlap.
///
/// Placement is decided for the whole world at once, in feature order, rather than per tile,
/// so every tile agrees on it and a label is never half drawn at a tile edge. Boxes are
/// compared across the antimeridian too (a label near 180° can collide with one near −180°).
final class LabelPlacement: @unchecked Sendable {
    /// A rectangle in tile pixels.
    struct Box {
        var x0: Double, y0: Double, x1: Double, y1: Double

        func overlaps(_ other: Box, gap: Double = 0) -> Bool {
            !(x1 + gap <= other.x0 || other.x1 + gap <= x0 || y1 + gap <= other.y0 || other.y1 + gap <= y0)
        }

        func shifted(x dx: Double) -> Box { Box(x0: x0 + dx, y0: y0, x1: x1 + dx, y1: y1) }
    }

    /// A label that is drawn: its feature, anchor point (zoom-0 world pixels) and text width.
    struct Placed {
        let feature: Int
        let anchor: WorldPixel
        let width: Double
    }

    private struct Candidate {
        let feature: Int
        let anchor: WorldPixel
        let width: Double
    }

    private let candidates: [Candidate]
    private let symbolizer: FeatureSymbolizer
    private let lock = NSLock()
    private var placedByScale: [Double: [Placed]] = [:]
    /// Least space kept between two labels, in tile pixels.
    private let gap = 2.0

    init(features: [ProjectedFeature], symbolizer: FeatureSymbolizer) {
        self.symbolizer = symbolizer
        let labelled = features.indices.filter { features[$0].label != nil && !features[$0].points.isEmpty }
        let widths = Self.measure(labelled.map { features[$0].label! }, size: symbolizer.labelSize)
        candidates = zip(labelled, widths).map { Candidate(feature: $0, anchor: features[$0].points[0], width: $1) }
    }

    /// The labels drawn where one zoom-0 world pixel is `scale` tile pixels, in drawing order.
    func placed(atScale scale: Double) -> [Placed] {
        lock.lock()
        defer { lock.unlock() }
        if let cached = placedByScale[scale] { return cached }
        let world = WebMercator.zoom0WorldSize * scale
        var kept: [Box] = []
        var result: [Placed] = []
        for candidate in candidates {
            let box = box(anchorX: candidate.anchor.x * scale, anchorY: candidate.anchor.y * scale, width: candidate.width)
            let clear = kept.allSatisfy { other in
                [-world, 0, world].allSatisfy { !box.shifted(x: $0).overlaps(other, gap: gap) }
            }
            if clear {
                kept.append(box)
                result.append(Placed(feature: candidate.feature, anchor: candidate.anchor, width: candidate.width))
            }
        }
        placedByScale[scale] = result
        return result
    }

    /// Where a label is drawn relative to its point, in tile pixels: the text starts this far right.
    var textOffset: Double { symbolizer.radius + 3 }
    /// The text baseline sits this far below the point.
    var baselineOffset: Double { symbolizer.labelSize / 3 }

    /// Everything `label` paints (marker, text, halo) when its anchor is at tile pixel (`x`, `y`).
    func inkBox(of label: Placed, atTileX x: Double, y: Double) -> Box {
        let b = box(anchorX: x, anchorY: y, width: label.width), halo = 2.0
        return Box(x0: b.x0 - halo, y0: b.y0 - halo, x1: b.x1 + halo, y1: b.y1 + halo)
    }

    /// The box of a label (marker and text) anchored at (x, y) in tile pixels.
    private func box(anchorX x: Double, anchorY y: Double, width: Double) -> Box {
        let size = symbolizer.labelSize
        let baseline = y + baselineOffset
        return Box(x0: x - symbolizer.radius, y0: baseline - size * 0.8, x1: x + textOffset + width, y1: baseline + size * 0.25)
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
