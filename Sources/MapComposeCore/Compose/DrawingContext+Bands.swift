import CCairo
import Foundation

extension DrawingContext {
    /// Rows of each band of a banded paint. Fixed, so that where bands start, and so the
    /// pixels, do not depend on the number of cores.
    static let paintBandRows = 64
    /// Fewest pixels a paint must cover to be banded.
    static let bandedPaintMinimumPixels = 128 * 1024

    /// Paints `image` as `paint` does, in bands of `paintBandRows` rows on all cores, each band
    /// with its own Cairo context on its own view of the target's rows and its own view of
    /// `image`, so that no Cairo or pixman object is shared between threads. Only where that
    /// is the same paint: the context draws straight on a raster image (not in a group), with
    /// the identity transform, the OVER operator and a clip of one whole-pixel rectangle, over at
    /// least `bandedPaintMinimumPixels`, with `drawsConcurrently` set. Returns false, painting
    /// nothing, in every other case.
    func drawInBands(_ image: RasterImage, x: Double, y: Double, scale: Double, alpha: Double, padEdges: Bool,
                     resampling: Resampling) -> Bool {
        guard let (raster, clip) = bandableTarget(), raster.height >= 2 * Self.paintBandRows else { return false }
        // Without padded edges the paint covers the image at most: tiles drawn in place stop here.
        if !padEdges, Double(image.width * image.height) * scale * scale < Double(Self.bandedPaintMinimumPixels) {
            return false
        }
        var rows = Int(clip.minY)..<Int(clip.maxY)
        if !padEdges {
            let top = Int(floor(y)), bottom = Int(ceil(y + Double(image.height) * scale))
            rows = rows.clamped(to: min(top, bottom)..<max(top, bottom))
        }
        rows = rows.clamped(to: 0..<raster.height)
        let pixels = clip.width * Double(rows.count)
        let painted = Self.paintBands(of: raster, within: rows)
        guard painted.count > 1, pixels >= Double(Self.bandedPaintMinimumPixels) else { return false }
        // Views are made here, on one thread: making one flushes the surface it views.
        let views: [(target: RasterImage, source: RasterImage)]
        do {
            views = try painted.map { band throws(CairoError) in (try raster.view(rows: band), try image.privateView()) }
        } catch {
            pendingError = pendingError ?? error
            return true
        }
        let translated = TranslatedBilinearPaint(
            image: image, x: x, y: y, scale: scale, alpha: alpha,
            filter: Self.filter(x: x, y: y, scale: scale, resampling: resampling),
            columns: Int(clip.minX)..<Int(clip.maxX), rows: rows)
        do {
            try ConcurrentWork.run(views.count) { index throws(CairoError) in
                if let translated, translated.paint(views[index].source, onto: views[index].target, rows: painted[index]) {
                    return
                }
                let context = try DrawingContext(views[index].target)
                context.newPath()
                context.rectangle(clip.origin.x, clip.origin.y, clip.width, clip.height)
                context.clip()
                context.paint(views[index].source, x: x, y: y, scale: scale, alpha: alpha, padEdges: padEdges,
                              resampling: resampling)
                try context.finish("paint band of rows")
            }
        } catch {
            pendingError = pendingError ?? error
        }
        cairo_surface_mark_dirty(surface)
        return true
    }

    /// Sets every pixel within the clip to `color`, as `clear(to:)` does, in bands of
    /// `paintBandRows` rows on all cores where drawing can be shared out (see `bandableTarget`):
    /// a new map's memory is first touched there, and the cores share the page faults. The same
    /// fill on each band's rows, so the same pixels; one `clear(to:)` otherwise. True when
    /// done in bands.
    @discardableResult
    func clearInBands(to color: RGBA) -> Bool {
        guard let (raster, clip) = bandableTarget(), raster.height >= 2 * Self.paintBandRows,
              clip.width * clip.height >= Double(Self.bandedPaintMinimumPixels) else {
            clear(to: color)
            return false
        }
        let rows = (Int(clip.minY)..<Int(clip.maxY)).clamped(to: 0..<raster.height)
        let cleared = Self.paintBands(of: raster, within: rows)
        // Views are made here, on one thread: making one flushes the surface it views.
        let views: [RasterImage]
        do {
            views = try cleared.map { band throws(CairoError) in try raster.view(rows: band) }
        } catch {
            pendingError = pendingError ?? error
            return true
        }
        do {
            try ConcurrentWork.run(views.count) { index throws(CairoError) in
                let context = try DrawingContext(views[index])
                context.newPath()
                context.rectangle(clip.origin.x, clip.origin.y, clip.width, clip.height)
                context.clip()
                context.clear(to: color)
                try context.finish("clear band of rows")
            }
        } catch {
            pendingError = pendingError ?? error
        }
        cairo_surface_mark_dirty(surface)
        return true
    }

    /// The rows of each `paintBandRows` band of `raster` that lie within `rows`, bands outside
    /// them left out.
    private static func paintBands(of raster: RasterImage, within rows: Range<Int>) -> [Range<Int>] {
        let bands = RowBands(rows: raster.height, rowsPerBand: paintBandRows)
        return (0..<bands.count).map { bands.rows(of: $0).clamped(to: rows) }.filter { !$0.isEmpty }
    }

    /// The raster image this context draws on and its clip, where drawing can be shared out in
    /// bands of rows with the same result: drawing straight on a raster image (not in a group),
    /// with `drawsConcurrently` set, the identity transform, the OVER operator and a clip of one
    /// whole-pixel rectangle; nil otherwise.
    func bandableTarget() -> (raster: RasterImage, clip: CGRect)? {
        guard drawsConcurrently, let raster = target as? RasterImage, cairo_get_group_target(cr) == surface,
              cairo_get_operator(cr) == CAIRO_OPERATOR_OVER, cairo_status(cr) == CAIRO_STATUS_SUCCESS else { return nil }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        guard matrix.xx == 1, matrix.yy == 1, matrix.xy == 0, matrix.yx == 0, matrix.x0 == 0, matrix.y0 == 0,
              let clip = wholePixelClip() else { return nil }
        return (raster, clip)
    }

    /// The current clip when it is one rectangle of whole device pixels; nil otherwise (a
    /// path, several rectangles, or edges between pixels). Cairo lists a clip of one box by
    /// its extents rounded out to whole pixels, so the box's own corners are checked too:
    /// `cairo_in_clip` compares points with the box's fixed-point edges, inclusive.
    private func wholePixelClip() -> CGRect? {
        let list = cairo_copy_clip_rectangle_list(cr)!
        defer { cairo_rectangle_list_destroy(list) }
        guard list.pointee.status == CAIRO_STATUS_SUCCESS, list.pointee.num_rectangles == 1 else { return nil }
        let r = list.pointee.rectangles[0]
        guard r.width > 0, r.height > 0, cairo_in_clip(cr, r.x, r.y) != 0,
              cairo_in_clip(cr, r.x + r.width - 1.0 / 1024, r.y + r.height - 1.0 / 1024) != 0 else { return nil }
        return CGRect(x: r.x, y: r.y, width: r.width, height: r.height)
    }
}
