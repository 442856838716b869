import CCairo
import Foundation

/// Paints a layer's group with a non-separable blend mode (hue, saturation, color, luminosity)
/// at an alpha below 1 as W3C Compositing and Blending Level 1 defines it.
///
/// Cairo 1.16's image backend (pixman) applies a paint's alpha wrongly to these four operators:
/// hue of #cc8844 over #336699 at 0.6 comes out rgb(117, 76, 112) instead of rgb(101, 90, 80),
/// and other colours are off by up to 95/255. At alpha 1, and for the separable modes at any
/// alpha, Cairo is right (within 1/255), so those are painted directly.
///
/// With opacity α, the specification's premultiplied result for a destination D and a group S
/// (opaque or not) is exactly (1 − α)·D + α·(D OP S): both the blended term αs·αb·B and the
/// source-only term αs·(1 − αb)·Cs are linear in the source alpha αs, which α scales. So the
/// group is blended at alpha 1 onto a copy of the destination (only the clip's extents), and the
/// copy is painted back with the SOURCE operator at alpha α, which Cairo computes as that
/// interpolation, and only inside the clip. OVER would give the same where the copy is opaque
/// but not over a transparent or translucent backdrop, where the copy is not.
struct NonSeparableBlendPainter {
    let cr: OpaquePointer

    /// Blends `group` (a pattern from `cairo_pop_group`, still owned by the caller) onto the
    /// current target of `cr` with `blendOperator` at `alpha`, within the current clip.
    func paint(_ group: OpaquePointer, blendOperator: cairo_operator_t, alpha: Double) throws(CairoError) {
        try CairoError.check(cairo_pattern_status(group), "end layer group")
        var userToDevice = cairo_matrix_t()
        cairo_get_matrix(cr, &userToDevice)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_identity_matrix(cr)
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_clip_extents(cr, &x1, &y1, &x2, &y2)
        let left = Int(floor(x1)), top = Int(floor(y1))
        let width = Int(ceil(x2)) - left, height = Int(ceil(y2)) - top
        guard width > 0, height > 0 else { return }

        let copy = try RasterImage(width: width, height: height)
        let copyContext = try DrawingContext(copy)
        let copyCR = copyContext.cr
        // The destination under the clip's extents (a group target keeps its device offset,
        // so device coordinates line up whatever is being drawn into).
        cairo_set_operator(copyCR, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(copyCR, cairo_get_group_target(cr), Double(-left), Double(-top))
        cairo_paint(copyCR)
        // The group blended at alpha 1, placed as it would be on the destination.
        cairo_translate(copyCR, Double(-left), Double(-top))
        cairo_transform(copyCR, &userToDevice)
        cairo_set_source(copyCR, group)
        cairo_set_operator(copyCR, blendOperator)
        cairo_paint(copyCR)
        try copyContext.finish("blend layer onto a copy of the map")

        cairo_set_source_surface(cr, copy.surface, Double(left), Double(top))
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint_with_alpha(cr, alpha)
        try CairoError.check(cairo_status(cr), "paint blended layer")
    }
}
