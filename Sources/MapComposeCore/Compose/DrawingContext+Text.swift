import CCairo
import CPangoLoader

/// Text, set by `TextEngine`.
extension DrawingContext {
    /// Draws `line` with the left end of its baseline at (x, y), first stroking its outline
    /// `haloWidth` wide in `halo` when there is one.
    func draw(_ line: TextLine, x: Double, y: Double, color: RGBA, halo: RGBA? = nil, haloWidth: Double = 2.5) {
        let left = x - line.origin.x, top = y - line.origin.y
        TextEngine.locked {
            if let halo {
                cairo_move_to(cr, left, top)
                mc_pango_cairo_layout_path(cr, line.layout)
                setColor(halo)
                cairo_set_line_width(cr, haloWidth)
                cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
                strokeHalo()
            }
            cairo_move_to(cr, left, top)
            setColor(color)
            mc_pango_cairo_show_layout(cr, line.layout)
            cairo_new_path(cr)
        }
    }

    /// Draws clusters of `line`, each under its own transformation from the line's frame (the
    /// left end of its baseline at the origin, x along the line, y down) into the drawing:
    /// first the halo, every cluster's outline stroked `haloWidth` wide in `halo` as one path
    /// (so halos of neighbours do not double where they overlap), then the glyphs.
    func draw(_ line: TextLine, clusters: [(cluster: TextCluster, transform: cairo_matrix_t)], color: RGBA,
              halo: RGBA? = nil, haloWidth: Double = 2.5) {
        TextEngine.locked {
            var runs: [UnsafeMutablePointer<mc_pango_layout_run>] = []
            line.forEachRun { run, _ in runs.append(run) }
            // Each cluster as a glyph string of its own that borrows its run's glyphs (read by
            // Pango while the lock is held, never kept or freed).
            func each(_ body: (OpaquePointer?, UnsafeMutablePointer<mc_pango_glyph_string>) -> Void) {
                for (cluster, transform) in clusters where cluster.run < runs.count {
                    let run = runs[cluster.run].pointee, source = run.glyphs.pointee
                    guard cluster.glyphs.upperBound <= Int(source.num_glyphs) else { continue }
                    let count = Int32(cluster.glyphs.count)
                    var glyphs = mc_pango_glyph_string(num_glyphs: count, glyphs: source.glyphs + cluster.glyphs.lowerBound,
                                                  log_clusters: source.log_clusters + cluster.glyphs.lowerBound, space: count)
                    var matrix = transform
                    cairo_save(cr)
                    cairo_transform(cr, &matrix)
                    cairo_move_to(cr, cluster.x, 0)
                    body(run.item.pointee.analysis.font, &glyphs)
                    cairo_restore(cr)
                }
            }
            if let halo {
                cairo_new_path(cr)
                each { font, glyphs in mc_pango_cairo_glyph_string_path(cr, font, glyphs) }
                setColor(halo)
                cairo_set_line_width(cr, haloWidth)
                cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
                strokeHalo()
            }
            setColor(color)
            each { font, glyphs in mc_pango_cairo_show_glyph_string(cr, font, glyphs) }
            cairo_new_path(cr)
        }
    }

    /// Strokes the current path, a text outline, as its halo: flattened to `haloTolerance`, as
    /// the halo's edge lies under the glyphs' own and its round joins need no finer steps.
    private func strokeHalo() {
        let tolerance = cairo_get_tolerance(cr)
        cairo_set_tolerance(cr, Self.haloTolerance)
        cairo_stroke(cr)
        cairo_set_tolerance(cr, tolerance)
    }

    /// Device pixels a halo's flattened outline may stray from the true one (Cairo's default,
    /// for every other path, is 0.1). Glyph outlines are short curves: at 0.5 a halo is cut into
    /// about half as many segments and round joins, its edge moves by less than a pixel's
    /// coverage, and labels cost less to draw where they are many (CJK names most).
    static let haloTolerance = 0.5

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
