import CCairo

/// A line's coverage with MapLibre's edges (`line-blur`), as a mask made with Cairo.
///
/// MapLibre keeps a line's width and fades its alpha linearly over `blur` + 1 device pixels (its
/// blur and a pixel of antialiasing): inward from half a pixel outside the outer edge and, where
/// the line has a gap, from half a pixel inside each side's inner edge on into the gap. Here the
/// ramps are a stack of strokes of the same path, each step's band narrower than the last by at
/// most a pixel at each ramp, added up in an alpha group: Cairo antialiases each step's edges over
/// a pixel, so the steps join into the linear ramps.
struct LineBlur {
    /// The line's width in device pixels (of each side, where it has a gap).
    let width: Double
    /// `line-gap-width` in device pixels.
    let gap: Double
    /// `line-blur` in device pixels; 0 for a sharp, antialiased edge.
    let blur: Double

    /// Most strokes drawn for one ramp (above about 15 px of blur the steps are more than a
    /// pixel apart and show faintly).
    static let maxSteps = 16

    /// How far the ramp reaches, device pixels.
    private var ramp: Double { max(0, blur) + 1 }

    /// Where the strokes run, right of the line (MapLibre's positive `line-offset`): on the line,
    /// or either side of its gap (nearer the middle with a blur, whose inner ramp reaches into the gap).
    var sides: [Double] {
        guard gap > 0 else { return [0] }
        let side = max(0, (gap + width + 1 - ramp) / 2)
        return [-side, side]
    }

    /// The width of each stroke, widest first, and its share of the full alpha in 255ths (the
    /// shares sum to 255, so where every step covers the line it is exactly opaque on an 8-bit mask).
    var steps: [(width: Double, share: Int)] {
        let count = min(Self.maxSteps, max(1, Int((ramp - 1e-9).rounded(.up))))
        // Without a gap the inner ramp is the other side's outer one.
        let base = width + (gap > 0 ? ramp : 1)
        return (0..<count).compactMap { i in
            let stroke = base - 2 * ramp * (Double(i) + 0.5) / Double(count)
            let share = 255 * (i + 1) / count - 255 * i / count
            return stroke > 0 ? (stroke, share) : nil
        }
    }

    /// The mask of the line: strokes the paths `addPath` adds on `cr` for each of `sides` (with
    /// the cap, join and dashes set on `cr`) into an alpha group, at most `alpha` opaque.
    func mask(on cr: OpaquePointer, alpha: Double, addPath: (_ side: Double) -> Void) throws(CairoError) -> CairoGroupPattern {
        cairo_push_group_with_content(cr, CAIRO_CONTENT_ALPHA)
        cairo_set_operator(cr, CAIRO_OPERATOR_ADD)
        cairo_new_path(cr)
        for side in sides { addPath(side) }
        for step in steps {
            cairo_set_line_width(cr, step.width)
            cairo_set_source_rgba(cr, 0, 0, 0, alpha * Double(step.share) / 255)
            cairo_stroke_preserve(cr)
        }
        cairo_new_path(cr)
        return try CairoGroupPattern(popping: cr)
    }
}
