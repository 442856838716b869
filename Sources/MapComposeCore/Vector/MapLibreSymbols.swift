import CCairo
import Foundation
import MapLibreStyleSpec

/// Text labels of `symbol` layers, placed once for the whole map: layers from the top down,
/// features of a layer by `symbol-sort-key`, each label kept only where its box overlaps no
/// label kept before it (unless `text-allow-overlap`; `text-ignore-placement` keeps it from
/// blocking others). Labels are drawn in device pixels across the whole map, so none is cut at
/// a tile edge, and each point is labelled from the one tile that holds it. Along lines
/// (`symbol-placement: line`, `line-center`) labels are straight, turned to the line at their
/// anchor and kept upright.
struct MapLibreLabel {
    let line: TextLine
    /// Left end of the baseline, in the label's frame (turned by `angle` about `pivot`).
    let x: Double, y: Double
    let angle: Double
    let pivot: SIMD2<Double>
    let color: RGBA
    let halo: RGBA?
    let haloWidth: Double
}

/// Boxes of the labels kept so far, bucketed in a grid for the overlap test.
struct CollisionGrid {
    typealias Box = (x0: Double, y0: Double, x1: Double, y1: Double)
    private var cells: [Int: [Box]] = [:]
    private let cell = 64.0

    private func keys(_ box: Box) -> [Int] {
        let c0 = Int(floor(box.x0 / cell)), c1 = Int(floor(box.x1 / cell))
        let r0 = Int(floor(box.y0 / cell)), r1 = Int(floor(box.y1 / cell))
        guard c1 - c0 < 256, r1 - r0 < 256 else { return [Int.max] }
        return (r0...r1).flatMap { r in (c0...c1).map { r &* 65_536 &+ $0 } }
    }

    func overlaps(_ box: Box) -> Bool {
        keys(box).contains { key in
            cells[key]?.contains { box.x0 < $0.x1 && $0.x0 < box.x1 && box.y0 < $0.y1 && $0.y0 < box.y1 } ?? false
        }
    }

    mutating func insert(_ box: Box) {
        for key in keys(box) { cells[key, default: []].append(box) }
    }
}

extension MapLibrePainter {
    /// The labels each symbol layer draws (by index in the style's drawn layers).
    func placeLabels() -> [Int: [MapLibreLabel]] {
        var grid = CollisionGrid()
        var placed: [Int: [MapLibreLabel]] = [:]
        let ctx = EvaluationContext(zoom: glZoom)
        let scale = viewport.scale
        for (index, layer) in group.layers.enumerated().reversed() where layer.kind == .symbol && layer.isVisible(glZoom: glZoom) {
            struct Candidate {
                var text: String, font: TextFont, point: Point, angle: Double, anchor: String, offset: Point, padding: Double
                var color: RGBA, halo: RGBA?, haloWidth: Double, sortKey: Double
            }
            var candidates: [Candidate] = []
            ctx.properties = [:]
            let placement = layer.string("symbol-placement", ctx) ?? "point"
            let spacing = max(1, layer.number("symbol-spacing", ctx) * scale)
            forEachFeature(layer, ctx) { feature in
                let anchors: [(point: Point, angle: Double)]
                let tile = feature.tile
                if placement == "point" {
                    anchors = feature.feature.points.filter {
                        $0.x >= tile.minX && $0.x < tile.maxX && $0.y >= tile.minY && $0.y < tile.maxY
                    }.map { ($0, 0) }
                } else {
                    let lines = feature.feature.type == .polygon ? feature.feature.polygons.flatMap { $0 } : feature.feature.lines
                    anchors = lines.flatMap { Self.clip(line: $0, to: tile) }.flatMap {
                        Self.anchors(along: $0, spacing: placement == "line-center" ? nil : spacing)
                    }
                }
                guard !anchors.isEmpty else { return }
                var text: String
                switch layer.value("text-field", ctx) {
                case .formatted(let formatted): text = formatted.text
                case .string(let string): text = string
                case let other where !other.isNull: text = other.stringValue
                default: return
                }
                switch layer.string("text-transform", ctx) {
                case "uppercase": text = text.uppercased()
                case "lowercase": text = text.lowercased()
                default: break
                }
                text = text.replacingOccurrences(of: "\n", with: " ")
                guard !text.isEmpty else { return }
                let size = min(layer.number("text-size", ctx), 1000) * scale
                let opacity = layer.number("text-opacity", ctx)
                guard size > 0, let color = layer.color("text-color", ctx, opacity: opacity), color.a > 0 else { return }
                let haloWidth = layer.number("text-halo-width", ctx) * scale
                let halo = layer.color("text-halo-color", ctx, opacity: opacity).flatMap { $0.a > 0 && haloWidth > 0 ? $0 : nil }
                let (dx, dy) = placement == "point" ? layer.pair("text-offset", ctx) : (0, 0)
                let font = Self.font(layer.value("text-font", ctx), size: size)
                for (point, angle) in anchors {
                    candidates.append(Candidate(text: text, font: font, point: point, angle: angle,
                                                anchor: placement == "point" ? layer.string("text-anchor", ctx) ?? "center" : "center",
                                                offset: Point(dx, dy) * size,
                                                padding: layer.number("text-padding", ctx) * scale,
                                                color: color.rgba, halo: halo?.rgba,
                                                haloWidth: haloWidth, sortKey: layer.number("symbol-sort-key", ctx)))
                }
            }
            ctx.properties = [:]
            let allowOverlap = layer.value("text-allow-overlap", ctx).boolean ?? false
            let ignorePlacement = layer.value("text-ignore-placement", ctx).boolean ?? false
            var kept: [MapLibreLabel] = []
            for candidate in candidates.enumerated().sorted(by: { ($0.element.sortKey, $0.offset) < ($1.element.sortKey, $1.offset) })
                .map(\.element) {
                guard let line = try? TextLine(candidate.text, font: candidate.font) else { continue }
                let e = line.extents
                let height = e.ascent + e.descent
                let anchor = candidate.anchor
                let left = anchor.hasSuffix("left") ? 0 : anchor.hasSuffix("right") ? -e.width : -e.width / 2
                let top = anchor.hasPrefix("top") ? 0 : anchor.hasPrefix("bottom") ? -height : -height / 2
                let x = candidate.point.x + candidate.offset.x + left
                let baseline = candidate.point.y + candidate.offset.y + top + e.ascent
                let pad = candidate.padding + candidate.haloWidth
                // The box of the label turned about its anchor, padded.
                let c = abs(cos(candidate.angle)), s = abs(sin(candidate.angle))
                let halfWidth = c * (e.width / 2 + pad) + s * (height / 2 + pad)
                let halfHeight = s * (e.width / 2 + pad) + c * (height / 2 + pad)
                let middle = Point(x + e.width / 2, baseline - e.ascent + height / 2)
                let box = (x0: middle.x - halfWidth, y0: middle.y - halfHeight, x1: middle.x + halfWidth, y1: middle.y + halfHeight)
                if !allowOverlap, grid.overlaps(box) { continue }
                if !ignorePlacement { grid.insert(box) }
                kept.append(MapLibreLabel(line: line, x: x, y: baseline, angle: candidate.angle, pivot: candidate.point,
                                          color: candidate.color, halo: candidate.halo, haloWidth: candidate.haloWidth))
            }
            placed[index] = kept
        }
        return placed
    }

    func drawLabels(_ labels: [MapLibreLabel], on context: DrawingContext) {
        for label in labels {
            context.save()
            if label.angle != 0 {
                cairo_translate(context.cr, label.pivot.x, label.pivot.y)
                cairo_rotate(context.cr, label.angle)
                cairo_translate(context.cr, -label.pivot.x, -label.pivot.y)
            }
            context.draw(label.line, x: label.x, y: label.y, color: label.color, halo: label.halo, haloWidth: 2 * label.haloWidth)
            context.restore()
        }
    }

    /// Where labels go along a line in device pixels, with the line's direction there (kept
    /// upright): every `spacing` pixels from half a spacing in, or only at the middle of its
    /// length when `spacing` is nil (and for lines shorter than one spacing).
    static func anchors(along line: [Point], spacing: Double?) -> [(point: Point, angle: Double)] {
        guard line.count >= 2 else { return [] }
        var lengths: [Double] = []
        for i in 1..<line.count {
            let d = line[i] - line[i - 1]
            lengths.append((d.x * d.x + d.y * d.y).squareRoot())
        }
        let total = lengths.reduce(0, +)
        guard total > 0 else { return [] }
        var distances: [Double] = [total / 2]
        if let spacing, total >= spacing {
            distances = Array(stride(from: spacing / 2, to: total, by: spacing).prefix(1000))
        }
        var result: [(point: Point, angle: Double)] = []
        var segment = 0, start = 0.0
        for distance in distances {
            while segment < lengths.count - 1, start + lengths[segment] < distance {
                start += lengths[segment]
                segment += 1
            }
            let a = line[segment], b = line[segment + 1]
            let t = lengths[segment] > 0 ? (distance - start) / lengths[segment] : 0
            var angle = atan2(b.y - a.y, b.x - a.x)
            if angle > .pi / 2 { angle -= .pi } else if angle <= -.pi / 2 { angle += .pi }
            result.append((a + (b - a) * max(0, min(1, t)), angle))
        }
        return result
    }

    /// The text engine's font for a MapLibre font stack: each name without its style words
    /// (`Noto Sans Regular` → `Noto Sans`), bold when the first name says so, Noto Sans after
    /// them for anything they lack.
    static func font(_ stack: Value, size: Double) -> TextFont {
        let names: [String]
        switch stack {
        case .array(let items): names = items.compactMap(\.string)
        case .string(let name): names = [name]
        default: names = []
        }
        let styles: Set<String> = ["Regular", "Bold", "Italic", "Medium", "Semibold", "SemiBold", "Light", "Black",
                                   "Heavy", "Condensed", "Oblique", "Book", "Thin", "ExtraBold", "Extra", "Ultra"]
        var families: [String] = []
        for name in names {
            var words = name.split(separator: " ").map(String.init)
            while words.count > 1, let last = words.last, styles.contains(last) { words.removeLast() }
            let family = words.joined(separator: " ")
            if !family.isEmpty, !families.contains(family) { families.append(family) }
        }
        if !families.contains(TextFont.defaultFamily) { families.append(TextFont.defaultFamily) }
        let bold = names.first.map { $0.contains("Bold") || $0.contains("Black") || $0.contains("Heavy") } ?? false
        return TextFont(family: families.joined(separator: ","), size: size, bold: bold)
    }
}

extension PaintColor {
    /// 8-bit, unpremultiplied.
    var rgba: RGBA {
        func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }
        return RGBA(r: byte(r), g: byte(g), b: byte(b), a: byte(a))
    }
}
