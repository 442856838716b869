import CCairo
import CPango
import Foundation

/// The one way text is set: Pango, shaping with HarfBuzz, fonts matched by fontconfig with
/// fallback per script, bidirectional text ordered by Pango (fribidi).
///
/// Nothing is set up until the first line of text is made (fontconfig's configuration, see
/// `FontConfiguration`, then each thread's font map), so renders without text never read
/// fonts. Lines made on different threads are independent: Pango's default Cairo font map
/// (which holds the fontconfig font sets and the loaded fonts) is one per thread, and every
/// line gets a context of its own from its thread's map. A `TextLine` is therefore used on the
/// thread that made it, within one synchronous stretch of code (never across an `await`).
enum TextEngine {
    /// A new Pango context on this thread's font map, owned by the caller (`g_object_unref`),
    /// set to draw text the same at any scale and on any surface: grey anti-aliasing, outlines
    /// and advances not hinted (so a line measures the same wherever it is drawn, whatever the
    /// transformation, and no font's hinting program has to run).
    static func makeContext() throws(CairoError) -> OpaquePointer {
        _ = FontConfiguration.ready
        let fontMap = pango_cairo_font_map_get_default()!
        let context = pango_font_map_create_context(fontMap)!
        let options = cairo_font_options_create()
        defer { cairo_font_options_destroy(options) }
        do {
            try CairoError.check(cairo_font_options_status(options), "text font options")
        } catch {
            g_object_unref(UnsafeMutableRawPointer(context))
            throw error
        }
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, options)
        return context
    }
}
