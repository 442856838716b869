import CCairo
import Foundation

/// A Cairo drawing context on a `RasterImage` or a `VectorPage`, owning its `cairo_t`.
///
/// Cairo errors are sticky: call `finish()` after drawing to surface any failure.
final class DrawingContext {
    let cr: OpaquePointer
    /// The target's surface, and the target itself, kept alive as long as the context.
    let surface: OpaquePointer
    let target: AnyObject

    convenience init(_ target: RasterImage) throws(CairoError) {
        try self.init(surface: target.surface, target: target)
    }

    convenience init(_ target: VectorPage) throws(CairoError) {
        try self.init(surface: target.surface, target: target)
    }

    private init(surface: OpaquePointer, target: AnyObject) throws(CairoError) {
        let cr = cairo_create(surface)!
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_destroy(cr)
            throw CairoError(operation: "create context", status: status.rawValue)
        }
        self.cr = cr
        self.surface = surface
        self.target = target
    }

    deinit {
        cairo_destroy(cr)
    }

    /// The first failure of work done outside `cr` (on temporary surfaces), kept until
    /// `finish` reports it, as Cairo keeps its own.
    var pendingError: CairoError?

    /// Large paints and mosaics are drawn in fixed bands of rows, on all cores where there are
    /// several (see DrawingContext+Bands.swift). On whatever the number of cores: where bands
    /// start changes how pixman rounds a resampled paint, and the pixels must not depend on
    /// the machine (off in tests, to compare, and inside a band).
    var drawsConcurrently = true

    /// Throws if any drawing call since creation failed, then flushes the target.
    func finish(_ operation: String) throws(CairoError) {
        if let pendingError { throw pendingError }
        try CairoError.check(cairo_status(cr), operation)
        cairo_surface_flush(surface)
        try CairoError.check(cairo_surface_status(surface), operation)
    }

    func setColor(_ color: RGBA) {
        let c = color.components
        cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a)
    }

    /// Fills the whole target with `color` (replacing what is there).
    func clear(to color: RGBA) {
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        setColor(color)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// Paints `color` over what is there, within the current clip.
    func paint(_ color: RGBA) {
        setColor(color)
        cairo_paint(cr)
    }

    /// Paints `image` with its top-left at (x, y), scaled by `scale`, resampled as `resampling`
    /// says, padding edges so adjacent content has no seams. A large paint is done in bands of
    /// rows on all cores when it can be (see DrawingContext+Bands.swift).
    func draw(_ image: RasterImage, x: Double, y: Double, scale: Double, alpha: Double = 1, padEdges: Bool,
              resampling: Resampling = .bilinear) {
        if drawInBands(image, x: x, y: y, scale: scale, alpha: alpha, padEdges: padEdges, resampling: resampling) { return }
        paint(image, x: x, y: y, scale: scale, alpha: alpha, padEdges: padEdges, resampling: resampling)
    }

    /// `draw` on this thread.
    func paint(_ image: RasterImage, x: Double, y: Double, scale: Double, alpha: Double, padEdges: Bool,
               resampling: Resampling) {
        cairo_save(cr)
        cairo_translate(cr, x, y)
        cairo_scale(cr, scale, scale)
        cairo_set_source_surface(cr, image.surface, 0, 0)
        let pattern = cairo_get_source(cr)
        cairo_pattern_set_filter(pattern, Self.filter(x: x, y: y, scale: scale, resampling: resampling))
        if padEdges {
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        }
        if alpha < 1 {
            cairo_paint_with_alpha(cr, alpha)
        } else {
            cairo_paint(cr)
        }
        cairo_restore(cr)
    }

    /// Copies `image` scaled to fill the integer cell (`x`, `y`, `width`, `height`), replacing
    /// what the cell held, and nothing outside it; edges are padded, so a scaled tile does not
    /// fade out at its border.
    func draw(_ image: RasterImage, intoCellX x: Int, y: Int, width: Int, height: Int) {
        cairo_save(cr)
        cairo_rectangle(cr, Double(x), Double(y), Double(width), Double(height))
        cairo_clip(cr)
        let sx = Double(width) / Double(image.width), sy = Double(height) / Double(image.height)
        cairo_translate(cr, Double(x), Double(y))
        cairo_scale(cr, sx, sy)
        cairo_set_source_surface(cr, image.surface, 0, 0)
        let pattern = cairo_get_source(cr)
        let filter = sx == 1 && sy == 1 ? CAIRO_FILTER_NEAREST : min(sx, sy) >= 0.5 ? CAIRO_FILTER_BILINEAR : CAIRO_FILTER_GOOD
        cairo_pattern_set_filter(pattern, filter)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// The filter for a draw: exact copies when pixels line up; otherwise `nearest`, Cairo's
    /// best, or for `bilinear` bilinear down to half size (what tile maps use) and Cairo's
    /// box-filtered GOOD below that to avoid aliasing.
    static func filter(x: Double, y: Double, scale: Double, resampling: Resampling = .bilinear) -> cairo_filter_t {
        if isAligned(x: x, y: y, scale: scale) { return CAIRO_FILTER_NEAREST }
        switch resampling {
        case .nearest: return CAIRO_FILTER_NEAREST
        case .best: return CAIRO_FILTER_BEST
        case .bilinear: return scale >= 0.5 ? CAIRO_FILTER_BILINEAR : CAIRO_FILTER_GOOD
        }
    }

    /// True when an image drawn at (x, y) scaled by `scale` puts its pixels exactly on device
    /// pixels (offsets under a millionth of a pixel count as none).
    static func isAligned(x: Double, y: Double, scale: Double) -> Bool {
        abs(scale - 1) < 1e-9 && abs(x - x.rounded()) < 1e-6 && abs(y - y.rounded()) < 1e-6
    }

    func save() { cairo_save(cr) }
    func scale(_ factor: Double) { cairo_scale(cr, factor, factor) }
    func restore() { cairo_restore(cr) }

    /// Restricts drawing to the current path.
    func clip() { cairo_clip(cr) }

    func beginGroup() { cairo_push_group(cr) }

    /// Ends the group started by `beginGroup` and paints it with `alpha` and `blend`.
    /// Non-separable modes below alpha 1 go through `NonSeparableBlendPainter`, as Cairo
    /// paints them wrongly.
    func endGroup(alpha: Double, blend: BlendMode) {
        if alpha < 1, !blend.isSeparable {
            let group = cairo_pop_group(cr)!
            defer { cairo_pattern_destroy(group) }
            do {
                try NonSeparableBlendPainter(cr: cr).paint(group, blendOperator: blend.cairoOperator, alpha: alpha)
            } catch {
                pendingError = pendingError ?? error
            }
            return
        }
        cairo_pop_group_to_source(cr)
        cairo_save(cr)
        cairo_set_operator(cr, blend.cairoOperator)
        if alpha < 1 {
            cairo_paint_with_alpha(cr, alpha)
        } else {
            cairo_paint(cr)
        }
        cairo_restore(cr)
    }

    // MARK: paths

    func moveTo(_ x: Double, _ y: Double) { cairo_move_to(cr, x, y) }
    func lineTo(_ x: Double, _ y: Double) { cairo_line_to(cr, x, y) }
    func closePath() { cairo_close_path(cr) }
    func newPath() { cairo_new_path(cr) }
    func rectangle(_ x: Double, _ y: Double, _ w: Double, _ h: Double) { cairo_rectangle(cr, x, y, w, h) }
    func circle(_ x: Double, _ y: Double, radius: Double) {
        cairo_new_sub_path(cr)
        cairo_arc(cr, x, y, radius, 0, 2 * .pi)
    }

    /// Adds an arc (clockwise on screen from angle `from` to `to`, in radians) to the path.
    func arc(_ x: Double, _ y: Double, radius: Double, from: Double, to: Double) {
        cairo_arc(cr, x, y, radius, from, to)
    }

    func fill(_ color: RGBA, preserve: Bool = false) {
        setColor(color)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        preserve ? cairo_fill_preserve(cr) : cairo_fill(cr)
    }

    func stroke(_ color: RGBA, width: Double) {
        setColor(color)
        cairo_set_line_width(cr, width)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_stroke(cr)
    }
}
