import CCairo

/// The regions of a line that a paint laid along it (a pattern, a gradient) fills, one per
/// segment, so that the paint turns with the line.
///
/// Each segment's region is a band `across` pixels either side of it that reaches from the
/// bisector of the corner before it past the segment's end; the next segment's region replaces it
/// past the next bisector, so corners are split between the two segments. The first and last
/// segments reach past the line's ends by `capReach`, the others past their corners by
/// `cornerReach` (miters). What is painted is a source for the line's coverage
/// (`LineBlur.mask`), which gives the line its shape.
struct LineSegmentRegions {
    typealias Point = SIMD2<Double>

    /// One segment of a line and the region painted for it.
    struct Segment {
        /// The line the segment belongs to, and the segment's index in it (from point `index`
        /// to point `index + 1`).
        let line: MeasuredLine
        let index: Int
        /// Its ends, moved by the offset.
        let start: Point, end: Point
        /// Its direction and the normal to its left (y down: toward the line's right in MapLibre terms).
        let direction: Point, normal: Point
        let length: Double
    }

    /// How far each region reaches either side of its segment, device pixels.
    let across: Double
    /// How far the line's coverage reaches past its ends (its caps), device pixels.
    let capReach: Double
    /// How far it reaches past a segment's end at a corner (miters), device pixels.
    let cornerReach: Double

    /// A new group holding, for every segment of `lines` moved by `offset`, its region filled
    /// with the source `setSource` sets for it (operator SOURCE: a later region replaces an
    /// earlier one where they overlap). Painted over the clip of `cr`, which should bound the lines.
    func paint(on cr: OpaquePointer, lines: [MeasuredLine], offset: Point,
               setSource: (Segment) throws(CairoError) -> Void) throws(CairoError) -> CairoGroupPattern {
        cairo_push_group(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        do {
            for line in lines {
                let points = line.points.map { $0 + offset }
                let segments = points.indices.dropLast().filter {
                    ((points[$0 + 1] - points[$0]) * (points[$0 + 1] - points[$0])).sum() > 1e-18
                }
                var before: Point?
                for i in segments {
                    let a = points[i], b = points[i + 1]
                    let length = ((b - a) * (b - a)).sum().squareRoot()
                    let u = (b - a) / length, n = Point(-u.y, u.x)
                    let back = i == segments.first ? capReach + 1 : cornerReach + 1
                    let ahead = i == segments.last ? capReach + 1 : cornerReach + 1
                    var region = [a - u * back - n * across, b + u * ahead - n * across,
                                  b + u * ahead + n * across, a - u * back + n * across]
                    if let before {
                        let bisector = before + u
                        let normal = (bisector * bisector).sum() > 1e-12 ? bisector : u
                        region = Self.clip(region, keeping: { ((($0 - a) * normal).sum()) >= 0 }, cut: { p, q in
                            let dp = ((p - a) * normal).sum(), dq = ((q - a) * normal).sum()
                            return p + (q - p) * (dp / (dp - dq))
                        })
                    }
                    before = u
                    guard region.count >= 3 else { continue }
                    try setSource(Segment(line: line, index: i, start: a, end: b, direction: u, normal: n, length: length))
                    cairo_new_path(cr)
                    cairo_move_to(cr, region[0].x, region[0].y)
                    for q in region.dropFirst() { cairo_line_to(cr, q.x, q.y) }
                    cairo_close_path(cr)
                    cairo_fill(cr)
                }
            }
        } catch {
            cairo_pattern_destroy(cairo_pop_group(cr))
            throw error
        }
        return try CairoGroupPattern(popping: cr)
    }

    /// The part of the convex polygon `points` where `keeping` holds (one half-plane; `cut`
    /// gives where an edge crosses its boundary).
    static func clip(_ points: [Point], keeping: (Point) -> Bool, cut: (Point, Point) -> Point) -> [Point] {
        var result: [Point] = []
        for (i, current) in points.enumerated() {
            let previous = points[(i + points.count - 1) % points.count]
            switch (keeping(previous), keeping(current)) {
            case (true, true): result.append(current)
            case (true, false): result.append(cut(previous, current))
            case (false, true): result += [cut(previous, current), current]
            case (false, false): break
            }
        }
        return result
    }
}
