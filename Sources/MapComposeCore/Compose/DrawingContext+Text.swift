import CCairo
import CPango

/// Text, set by `TextEngine`.
extension DrawingContext {
    /// Draws `line` with the left end of its baseline at (x, y), first stroking its outline
    /// `haloWidth` wide in `halo` when there is one.
    func draw(_ line: TextLine, x: Double, y: Double, color: RGBA, halo: RGBA? = nil, haloWidth: Double = 2.5) {
        let left = x - line.origin.x, top = y - line.origin.y
        TextEngine.locked {
            if let halo {
                cairo_move_to(cr, left, top)
                pango_cairo_layout_path(cr, line.layout)
                setColor(halo)
                cairo_set_line_width(cr, haloWidth)
                cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
                cairo_stroke(cr)
            }
            cairo_move_to(cr, left, top)
            setColor(color)
            pango_cairo_show_layout(cr, line.layout)
            cairo_new_path(cr)
        }
    }

    /// Shapes `text` in `font` and draws it with the left end of its baseline where `place`
    /// puts it, given the line's extents. A failure is kept for `finish` to report.
    func text(_ text: String, font: TextFont, color: RGBA, halo: RGBA? = nil, haloWidth: Double = 2.5,
              at place: (TextExtents) -> (x: Double, y: Double)) {
        guard let line = line(text, font: font) else { return }
        let (x, y) = place(line.extents)
        draw(line, x: x, y: y, color: color, halo: halo, haloWidth: haloWidth)
    }

    /// `text` shaped in `font`, or nil with the failure kept for `finish` to report.
    func line(_ text: String, font: TextFont) -> TextLine? {
        do {
            return try TextLine(text, font: font)
        } catch {
            pendingError = pendingError ?? error
            return nil
        }
    }
}
