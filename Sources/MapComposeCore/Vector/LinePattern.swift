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
/// Each segment's region (`LineSegmentRegions`) gets the image turned to it and moved on by the
/// distance along the line, so the pattern runs on unbroken round corners.
struct LinePattern {
    typealias Point = SIMD2<Double>

    let icon: SpriteIcon
    /// Device pixels per CSS pixel.
    let scale: Double
    /// Half the line's whole width in device pixels (both sides and the gap, where it has one).
    let halfWidth: Double
    /// Where the image is laid: the line's segments, reaching past its caps and corners.
    let regions: LineSegmentRegions

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

    /// A new group holding the image laid along `lines` (their `distances` the distance along
    /// each feature's line), moved by `offset`; painted over the clip of `cr`, which should bound the lines.
    func source(on cr: OpaquePointer, lines: [MeasuredLine], offset: Point) throws(CairoError) -> CairoGroupPattern {
        let pattern = try CairoSurfacePattern(try icon.image.privateView())
        let kx = alongScale, ky = acrossScale
        let width = Double(icon.image.width), height = Double(icon.image.height)
        let filter = kx <= 2 ? CAIRO_FILTER_BILINEAR : CAIRO_FILTER_GOOD
        return try regions.paint(on: cr, lines: lines, offset: offset) { segment throws(CairoError) in
            let a = segment.start, u = segment.direction, n = segment.normal
            // Image x: distance along the line; image y: the middle row on the line, the top to its right.
            let along = (kx * segment.line.distances[segment.index]).truncatingRemainder(dividingBy: width) - kx * (a * u).sum()
            try pattern.repeating(transform: cairo_matrix_t(xx: kx * u.x, yx: -ky * n.x, xy: kx * u.y, yy: -ky * n.y,
                                                            x0: along, y0: height / 2 + ky * (a * n).sum()),
                                  filter: filter)
            cairo_set_source(cr, pattern.pointer)
        }
    }
}
