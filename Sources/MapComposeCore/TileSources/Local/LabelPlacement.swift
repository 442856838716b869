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

    /// A label: its feature, anchor point (zoom-0 world pixels) and the extents of its text.
    struct Placed {
        let feature: Int
        let anchor: WorldPixel
        let extents: TextExtents
    }

    /// The labelled features, in drawing order: feature index, anchor and text.
    private let labelled: [(feature: Int, anchor: WorldPixel, text: String)]
    private let symbolizer: FeatureSymbolizer
    private let lock = NSLock()
    /// The labels with their text's extents, measured on the first placement (under `lock`):
    /// shaping needs the text engine, which is still loading while a style is read.
    private var measured: [Placed]?
    private var placedByScale: [Double: [Placed]] = [:]
    /// Least space kept between two labels, in tile pixels.
    private let gap = 2.0

    init(features: [ProjectedFeature], symbolizer: FeatureSymbolizer) {
        self.symbolizer = symbolizer
        labelled = features.indices.compactMap { index in
            guard let text = features[index].label, let anchor = features[index].points.first else { return nil }
            return (index, anchor, text)
        }
    }

    /// Whether the labels' text has been measured yet (it is on the first placement).
    var hasMeasuredLabels: Bool {
        lock.lock()
        defer { lock.unlock() }
        return measured != nil
    }

    /// Every label with its text measured; called with `lock` held.
    private func candidates() -> [Placed] {
        if let measured { return measured }
        let font = TextFont(size: symbolizer.labelSize)
        let result = labelled.map { label in
            let extents = (try? StraightTextLine(label.text, font: font).extents) ?? Self.estimate(label.text, size: font.size)
            return Placed(feature: label.feature, anchor: label.anchor, extents: extents)
        }
        measured = result
        return result
    }

    /// The labels drawn where one zoom-0 world pixel is `scale` tile pixels, in drawing order.
    func placed(atScale scale: Double) -> [Placed] {
        lock.lock()
        defer { lock.unlock() }
        if let cached = placedByScale[scale] { return cached }
        let world = WebMercator.zoom0WorldSize * scale
        var kept: [Box] = []
        var result: [Placed] = []
        for candidate in candidates() {
            let box = box(anchorX: candidate.anchor.x * scale, anchorY: candidate.anchor.y * scale, extents: candidate.extents)
            let clear = kept.allSatisfy { other in
                [-world, 0, world].allSatisfy { !box.shifted(x: $0).overlaps(other, gap: gap) }
            }
            if clear {
                kept.append(box)
                result.append(candidate)
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
        let b = box(anchorX: x, anchorY: y, extents: label.extents), halo = 2.0
        return Box(x0: b.x0 - halo, y0: b.y0 - halo, x1: b.x1 + halo, y1: b.y1 + halo)
    }

    /// The box of a label (its point's marker and the ink of its text) anchored at (x, y) in
    /// tile pixels.
    private func box(anchorX x: Double, anchorY y: Double, extents: TextExtents) -> Box {
        let r = symbolizer.radius, left = x + textOffset, baseline = y + baselineOffset
        return Box(x0: min(x - r, left + extents.inkLeft), y0: min(y - r, baseline + extents.inkTop),
                   x1: max(x + r, left + max(extents.width, extents.inkRight)), y1: max(y + r, baseline + extents.inkBottom))
    }

    /// Generous extents for a label that could not be shaped.
    private static func estimate(_ text: String, size: Double) -> TextExtents {
        let width = Double(text.count) * size * 0.65
        return TextExtents(width: width, ascent: size, descent: size * 0.3,
                           inkLeft: 0, inkTop: -size, inkRight: width, inkBottom: size * 0.3)
    }
}
