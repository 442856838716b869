import CCairo
import MapLibreStyleSpec

/// MapLibre's `line-gradient`: a line coloured by `line-progress`, 0 where its feature's line
/// starts and 1 where it ends.
///
/// As MapLibre does, the expression is sampled at 256 evenly spaced progress values and read
/// between them linearly, in premultiplied colour. Each segment's region (`LineSegmentRegions`)
/// is painted with a linear gradient along the segment holding the samples it passes, so the
/// colours follow the line round its corners; the line's coverage gives it its shape.
struct LineGradient {
    typealias Point = SIMD2<Double>

    /// Premultiplied red, green, blue, alpha at progress i / 255.
    let samples: [SIMD4<Double>]

    /// Progress values sampled, less one.
    static let intervals = 255

    /// The layer's gradient; nil where it sets none.
    init?(_ layer: MapLibreLayer, _ ctx: EvaluationContext) {
        guard let expression = layer.properties["line-gradient"] else { return nil }
        let saved = ctx.lineProgress
        defer { ctx.lineProgress = saved }
        samples = (0...Self.intervals).map { i in
            ctx.lineProgress = Double(i) / Double(Self.intervals)
            guard case .color(let c) = expression.evaluate(ctx, fallback: .null) else { return .zero }
            return SIMD4(c.r, c.g, c.b, c.a).clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 1))
        }
    }

    /// The colour at `progress` (clamped to 0…1), premultiplied.
    func premultiplied(at progress: Double) -> SIMD4<Double> {
        let position = max(0, min(1, progress.isNaN ? 0 : progress)) * Double(Self.intervals)
        let low = min(Self.intervals - 1, Int(position))
        let t = position - Double(low)
        return samples[low] * (1 - t) + samples[low + 1] * t
    }

    /// The colour at `progress`, unpremultiplied for Cairo.
    func color(at progress: Double) -> PaintColor {
        Self.paintColor(premultiplied(at: progress))
    }

    private static func paintColor(_ p: SIMD4<Double>) -> PaintColor {
        guard p.w > 0 else { return PaintColor(r: 0, g: 0, b: 0, a: 0) }
        return PaintColor(r: min(1, p.x / p.w), g: min(1, p.y / p.w), b: min(1, p.z / p.w), a: p.w)
    }

    /// A new group holding the gradient laid along `lines` (their `distances` the progress at
    /// each point), moved by `offset`, over `regions`; painted over the clip of `cr`, which
    /// should bound the lines.
    func source(on cr: OpaquePointer, lines: [MeasuredLine], offset: Point,
                regions: LineSegmentRegions) throws(CairoError) -> CairoGroupPattern {
        try regions.paint(on: cr, lines: lines, offset: offset) { segment throws(CairoError) in
            let from = segment.line.distances[segment.index], to = segment.line.distances[segment.index + 1]
            guard from != to else {
                let c = color(at: from)
                cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a)
                return
            }
            let gradient = try CairoLinearGradient(from: segment.start, to: segment.end)
            for stop in stops(from: from, to: to) { try gradient.addStop(at: stop.offset, stop.color) }
            cairo_set_source(cr, gradient.pointer)
        }
    }

    /// The colour stops of a segment whose progress runs from `from` to `to`: its ends and every
    /// sample it passes, at their share of the way along it.
    func stops(from: Double, to: Double) -> [(offset: Double, color: PaintColor)] {
        let n = Double(Self.intervals)
        var result = [(0.0, color(at: from))]
        let low = min(from, to), high = max(from, to)
        let first = max(0, Int((low * n).rounded(.down)) + 1), last = min(Self.intervals, Int((high * n).rounded(.up)) - 1)
        if first <= last {
            var inner = (first...last).map { i in ((Double(i) / n - from) / (to - from), Self.paintColor(samples[i])) }
            if to < from { inner.reverse() }
            result += inner.filter { $0.0 > 0 && $0.0 < 1 }
        }
        result.append((1, color(at: to)))
        return result
    }
}
