import CCairo
import CPangoLoader

/// Text, set by `TextEngine`.
extension DrawingContext {
    /// Draws `line` with the left end of its baseline at (x, y), first stroking its outline
    /// `haloWidth` wide in `halo` when there is one (its edge fading over `haloBlur`, see
    /// `strokeHalo`).
    func draw(_ line: TextLine, x: Double, y: Double, color: RGBA, halo: RGBA? = nil, haloWidth: Double = 2.5,
              haloBlur: Double = 0) {
        let left = x - line.origin.x, top = y - line.origin.y
        TextEngine.locked {
            if let halo {
                strokeHalo(halo, width: haloWidth, blur: haloBlur) {
                    cairo_move_to(cr, left, top)
                    mc_pango_cairo_layout_path(cr, line.layout)
                }
            }
            cairo_move_to(cr, left, top)
            setColor(color)
            mc_pango_cairo_show_layout(cr, line.layout)
            cairo_new_path(cr)
        }
    }

    /// Draws `line` with the left end of its baseline at (x, y), as `draw(_: TextLine, …)` draws
    /// a line Pango set.
    func draw(_ line: StraightTextLine, x: Double, y: Double, color: RGBA, halo: RGBA? = nil, haloWidth: Double = 2.5,
              haloBlur: Double = 0) {
        switch line {
        case .plain(let line): draw(line, x: x, y: y, color: color, halo: halo, haloWidth: haloWidth, haloBlur: haloBlur)
        case .pango(let line): draw(line, x: x, y: y, color: color, halo: halo, haloWidth: haloWidth, haloBlur: haloBlur)
        }
    }

    /// Draws a plain line as Pango Cairo draws the same line set by Pango: its glyphs placed from
    /// the same point, in the same Cairo font, through the same calls, so either gives the same
    /// pixels (and the same PDF).
    private func draw(_ line: PlainTextLine, x: Double, y: Double, color: RGBA, halo: RGBA?, haloWidth: Double,
                      haloBlur: Double) {
        let left = x - line.origin.x, top = y - line.origin.y
        if let halo {
            strokeHalo(halo, width: haloWidth, blur: haloBlur) {
                cairo_move_to(cr, left, top)
                addGlyphs(of: line) { cairo_glyph_path(cr, $0, $1) }
            }
        }
        cairo_move_to(cr, left, top)
        setColor(color)
        if cairo_surface_has_show_text_glyphs(cairo_get_target(cr)) != 0 {
            // A PDF keeps the text the glyphs stand for, cluster by cluster, as Pango gives it.
            let clusters = line.cairoClusters
            addGlyphs(of: line) { glyphs, count in
                clusters.withUnsafeBufferPointer { clusters in
                    cairo_show_text_glyphs(cr, line.text, Int32(clamping: line.text.utf8.count), glyphs, count,
                                           clusters.baseAddress, Int32(clusters.count), cairo_text_cluster_flags_t(0))
                }
            }
        } else {
            addGlyphs(of: line) { cairo_show_glyphs(cr, $0, $1) }
        }
        cairo_new_path(cr)
    }

    /// Runs `body` (which draws or adds to the path the glyphs it is given) on the glyphs of
    /// `line` placed from the current point, in the line's font, then moves back to that point,
    /// as Pango Cairo does for a run.
    private func addGlyphs(of line: PlainTextLine, _ body: (UnsafePointer<cairo_glyph_t>, Int32) -> Void) {
        var left = 0.0, top = 0.0
        cairo_get_current_point(cr, &left, &top)
        let glyphs = line.cairoGlyphs(at: cr)
        cairo_save(cr)
        cairo_set_scaled_font(cr, line.font.scaledFont)
        glyphs.withUnsafeBufferPointer { body($0.baseAddress!, Int32(clamping: $0.count)) }
        cairo_restore(cr)
        cairo_move_to(cr, left, top)
    }

    /// Draws clusters of `line`, each under its own transformation from the line's frame (the
    /// left end of its baseline at the origin, x along the line, y down) into the drawing:
    /// first the halo, every cluster's outline stroked `haloWidth` wide in `halo` as one path
    /// (so halos of neighbours do not double where they overlap), then the glyphs.
    func draw(_ line: TextLine, clusters: [(cluster: TextCluster, transform: cairo_matrix_t)], color: RGBA,
              halo: RGBA? = nil, haloWidth: Double = 2.5, haloBlur: Double = 0) {
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
                strokeHalo(halo, width: haloWidth, blur: haloBlur) {
                    each { font, glyphs in mc_pango_cairo_glyph_string_path(cr, font, glyphs) }
                }
            }
            setColor(color)
            each { font, glyphs in mc_pango_cairo_show_glyph_string(cr, font, glyphs) }
            cairo_new_path(cr)
        }
    }

    /// Strokes the text outline `addPath` adds on `cr` as its halo, `width` wide in `color`
    /// with round joins, flattened to `haloTolerance`, as the halo's edge lies under the glyphs'
    /// own and its round joins need no finer steps. With a `blur` (pixels), the outer edge fades
    /// as MapLibre's `text-halo-blur` does: linearly, from `haloBlurReach` × blur inside the
    /// halo's edge to as far outside it (a `LineBlur` mask of the outline).
    private func strokeHalo(_ color: RGBA, width: Double, blur: Double, addPath: () -> Void) {
        let tolerance = cairo_get_tolerance(cr)
        cairo_set_tolerance(cr, Self.haloTolerance)
        defer { cairo_set_tolerance(cr, tolerance) }
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        setColor(color)
        let reach = blur.isFinite ? min(max(0, blur), 1000) * Self.haloBlurReach : 0
        guard reach > 0 else {
            cairo_new_path(cr)
            addPath()
            cairo_set_line_width(cr, width)
            cairo_stroke(cr)
            return
        }
        // The mask's ramp starts half a pixel outside its stroke and runs `blur` + 1 pixels in.
        let fade = LineBlur(width: max(0, width + 2 * reach - 1), gap: 0, blur: max(0, 2 * reach - 1))
        do {
            let mask = try fade.mask(on: cr, alpha: 1) { _ in addPath() }
            cairo_mask(cr, mask.pointer)
        } catch {
            pendingError = pendingError ?? error
        }
        cairo_new_path(cr)
    }

    /// How far either side of a halo's edge MapLibre's blur reaches, per pixel of
    /// `text-halo-blur` (its shader's smoothstep runs over 1.19 × blur each way).
    static let haloBlurReach = 1.19

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
    func line(_ text: String, font: TextFont) -> StraightTextLine? {
        do {
            return try StraightTextLine(text, font: font)
        } catch {
            pendingError = pendingError ?? error
            return nil
        }
    }
}
