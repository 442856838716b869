import CCairo
import Foundation

/// A line in device pixels with the distance along it, from where its feature's line starts,
/// at each point.
struct MeasuredLine {
    var points: [SIMD2<Double>]
    var distances: [Double]
}

/// MapLibre's `line-pattern` drawn with Cairo: the sprite image repeated along the line, its x
/// axis in the line's direction and its top toward the line's right (as MapLibre lays it), at
/// its own size along the line; across, at its own size where the line is narrower (the middle
/// of the image shows) and stretched over the line's width where the line is wider.
///
/// Each segment gets the image turned to it and moved on by the distance along the line, over a
/// region that reaches from the bisector of the corner before it past the segment's end; the
/// next segment's region replaces it past the next bisector, so corners are split between the
/// two segments and the pattern runs on unbroken. What is painted is a source for the line's
/// coverage (`LineBlur.mask`), which gives the line its shape.
struct LinePattern {
    typealias Point = SIMD2<Double>

    let icon: SpriteIcon
    /// Device pixels per CSS pixel.
    let scale: Double
    /// Half the line's whole width in device pixels (both sides and the gap, where it has one).
    let halfWidth: Double
    /// How far the line's coverage reaches past its ends (its caps), device pixels.
    let capReach: Double
    /// How far it reaches past a segment's end at a corner (miters), device pixels.
    let cornerReach: Double

    /// How much longer the image is drawn along the line than its own size: MapLibre keeps
    /// patterns to the tiles of the whole zoom below the view's, so they grow by 2^fraction
    /// between whole zooms (see `MapLibrePainter.patternGrowth`).
    var growth: Double = 1

    /// Image pixels per device pixel along the line.
    var alongScale: Double { icon.pixelRatio / (scale * growth) }

    /// Image pixels per device pixel across the line: as along it, unless the line is wider than
    /// the image and a pixel each side (MapLibre's antialiasing margin counted), then the image
    /// and those pixels, wrapped, span the line.
    var acrossScale: Double {
        let height = Double(icon.image.height) / icon.pixelRatio
        let outset = (halfWidth + 0.5) / scale
        return icon.pixelRatio / scale * min(1, (height + 2) / (2 * outset))
    }

    /// A new group holding the image laid along `lines`, moved by `offset`; painted over the
    /// clip of `cr`, which should bound the lines.
    func source(on cr: OpaquePointer, lines: [MeasuredLine], offset: Point) throws(CairoError) -> CairoGroupPattern {
        let pattern = try CairoSurfacePattern(try icon.image.privateView())
        let kx = alongScale, ky = acrossScale
        let width = Double(icon.image.width), height = Double(icon.image.height)
        let filter = kx <= 2 ? CAIRO_FILTER_BILINEAR : CAIRO_FILTER_GOOD
        cairo_push_group(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        // Regions reach no further than the coverage does, so they paint over little of other lines.
        let across = halfWidth + 1.5
        do {
            for line in lines {
                let points = line.points.map { $0 + offset }
                let segments = points.indices.dropLast().filter { ((points[$0 + 1] - points[$0]) * (points[$0 + 1] - points[$0])).sum() > 1e-18 }
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
                    // Image x: distance along the line; image y: the middle row on the line, the top to its right.
                    let along = (kx * line.distances[i]).truncatingRemainder(dividingBy: width) - kx * (a * u).sum()
                    try pattern.repeating(transform: cairo_matrix_t(xx: kx * u.x, yx: -ky * n.x, xy: kx * u.y, yy: -ky * n.y,
                                                                    x0: along, y0: height / 2 + ky * (a * n).sum()),
                                          filter: filter)
                    cairo_set_source(cr, pattern.pointer)
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
