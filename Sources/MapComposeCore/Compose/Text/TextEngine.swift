import CCairo
import CPangoLoader
import Foundation

/// The one way text is set: Pango, shaping with HarfBuzz, fonts matched by fontconfig with
/// fallback per script, bidirectional text ordered by Pango (fribidi).
///
/// Nothing is set up until the first line of text is made (Pango loaded, see CPangoLoader,
/// fontconfig's configuration, see `FontConfiguration`, then the font map), so renders without
/// text never load Pango or read fonts. The
/// process has one Pango font map (which keeps the fontconfig font sets, Pango's sorted
/// fallback lists and the loaded fonts, so each is made once) and one context on it; Pango
/// objects are not safe to share between threads, so every call into Pango, from any thread,
/// is made holding `lock` (through `withPango`). Text is a small part of a render, so renders
/// on other threads seldom wait for it.
enum TextEngine {
    /// The shared context, or why it could not be made.
    private static let shared: Result<SharedContext, CairoError> = SharedContext.make(vertical: false)
    /// The context for text set top to bottom (see `TextLine.init`'s `vertical`).
    private static let sharedVertical: Result<SharedContext, CairoError> = SharedContext.make(vertical: true)

    private static let lock = NSLock()

    /// Runs `body` holding the lock every Pango call is made under, with the shared context
    /// (`vertical`: the one for text set top to bottom).
    static func withPango<T>(vertical: Bool = false, _ body: (OpaquePointer) throws(CairoError) -> T) throws(CairoError) -> T {
        let context = try (vertical ? sharedVertical : shared).get().context
        lock.lock()
        defer { lock.unlock() }
        return try body(context)
    }

    /// Runs `body` holding the lock, for Pango calls on objects already made (layouts).
    static func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// How glyphs are drawn, by Pango and by `PlainTextFont` alike (the caller destroys the
    /// options): grey anti-aliasing, outlines and advances not hinted, so a line measures the same
    /// wherever it is drawn, whatever the transformation, and no font's hinting program has to run.
    static func makeFontOptions() throws(CairoError) -> OpaquePointer {
        let options = cairo_font_options_create()!
        do {
            try CairoError.check(cairo_font_options_status(options), "text font options")
        } catch {
            cairo_font_options_destroy(options)
            throw error
        }
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        return options
    }

    /// A Pango context of the process, made on first use and kept to the end.
    private final class SharedContext: @unchecked Sendable {
        let context: OpaquePointer

        static func make(vertical: Bool) -> Result<SharedContext, CairoError> {
            do throws(CairoError) {
                return .success(try SharedContext(vertical: vertical))
            } catch {
                return .failure(error)
            }
        }

        /// A context on a new Pango Cairo font map, set to draw text the same at any scale and
        /// on any surface (see `makeFontOptions`). `vertical`: its base gravity is east, so lines are laid
        /// out to be drawn a quarter turn clockwise, top to bottom (see `TextLine.init`).
        init(vertical: Bool) throws(CairoError) {
            var why = [CChar](repeating: 0, count: 512)
            guard mc_pango_load(&why, why.count) == 0 else {
                throw CairoError(operation: "text", status: CAIRO_STATUS_INVALID_STATUS.rawValue,
                                 detail: String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            _ = FontConfiguration.ready
            let options = try TextEngine.makeFontOptions()
            defer { cairo_font_options_destroy(options) }
            let fontMap = mc_pango_cairo_font_map_new()!
            context = mc_pango_font_map_create_context(fontMap)!  // holds its own reference to the map
            mc_g_object_unref(UnsafeMutableRawPointer(fontMap))
            mc_pango_cairo_context_set_font_options(context, options)
            if vertical { mc_pango_context_set_base_gravity(context, MC_PANGO_GRAVITY_EAST) }
        }
    }
}
