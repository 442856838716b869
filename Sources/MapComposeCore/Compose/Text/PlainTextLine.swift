import CCairo
import CHarfBuzzLoader
import CPangoLoader
import Foundation

/// A line of text set without Pango: shaped by HarfBuzz in one font, with the glyphs, the
/// advances (rounded to whole pixels), the extents and the drawing Pango gives the same line.
///
/// Only for text that Pango lays out as one run of one font, shaped as this shapes it:
/// - every character is plain (`script(of:)`: Latin letters, digits, spaces and common
///   punctuation and symbols; no combining marks, no controls or invisible characters, nothing
///   written right to left);
/// - the family's first font (`PlainTextFont`) has every character, so Pango falls back to no
///   other font;
/// - the text's language is one Pango keeps for Latin text (`PlainTextLanguage`);
/// - something is drawn (a line of spaces is left to Pango).
/// `StraightTextLine` sets a line this way where it can and with Pango otherwise, so a map whose
/// text is all plain (an attribution, labels in Latin script) never loads Pango and the
/// libraries it brings. Pango 1.50's steps are followed: one HarfBuzz buffer left to right with
/// the run's script and language, clusters kept monotone, the paragraph's start and end
/// flagged; advances and offsets rounded to whole pixels (Pango's default); the font's
/// ascender and descender as the line's logical height; glyph ink from Cairo.
struct PlainTextLine: Sendable {
    /// A glyph and where it is drawn: `x` from the left end of the line and `y` from the
    /// baseline (down), in Pango units; `cluster`: the UTF-8 offset of the first character it
    /// stands for.
    struct Glyph: Sendable, Equatable {
        let id: UInt32
        let x: Int32
        let y: Int32
        let cluster: Int
    }

    let text: String
    let font: PlainTextFont
    /// The glyphs left to right.
    let glyphs: [Glyph]
    /// The line's size around the left end of its baseline, as `TextLine` measures it.
    let extents: TextExtents
    /// From the top left of the line's logical box to the left end of its baseline, in Pango
    /// units (as `TextLine.origin`, which is in pixels).
    let baseline: Int32

    /// From the top left of the line's logical box to the left end of its baseline, in pixels.
    var origin: (x: Double, y: Double) { (0, Double(baseline) / Double(MC_PANGO_SCALE)) }

    /// `text` (already stream-safe, see `StreamSafeText`) set plainly in `font`, or nil when it
    /// is not plain text (see the type's comment).
    init?(_ text: String, font: TextFont) {
        guard let script = Self.script(of: text), let language = PlainTextLanguage.current,
              let plainFont = PlainTextFont.font(for: font, language: language),
              text.unicodeScalars.allSatisfy(plainFont.has) else { return nil }
        guard let buffer = mc_hb_buffer_create() else { return nil }
        defer { mc_hb_buffer_destroy(buffer) }
        mc_hb_buffer_set_direction(buffer, MC_HB_DIRECTION_LTR)
        mc_hb_buffer_set_script(buffer, script)
        mc_hb_buffer_set_language(buffer, mc_hb_language_from_string(language, -1))
        mc_hb_buffer_set_cluster_level(buffer, MC_HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS)
        mc_hb_buffer_set_flags(buffer, UInt32(MC_HB_BUFFER_FLAG_BOT | MC_HB_BUFFER_FLAG_EOT))
        let length = Int32(clamping: text.utf8.count)
        text.withCString { mc_hb_buffer_add_utf8(buffer, $0, length, 0, length) }
        mc_hb_shape(plainFont.shapingFont, buffer, nil, 0)
        let count = Int(mc_hb_buffer_get_length(buffer))
        guard count > 0, let infos = mc_hb_buffer_get_glyph_infos(buffer, nil),
              let positions = mc_hb_buffer_get_glyph_positions(buffer, nil) else { return nil }
        var glyphs: [Glyph] = []
        glyphs.reserveCapacity(count)
        var pen: Int32 = 0
        var ink: (x: Int32, y: Int32, width: Int32, height: Int32) = (0, 0, 0, 0)
        for index in 0..<count {
            let id = infos[index].codepoint, position = positions[index]
            let width = Self.roundedToPixel(position.x_advance)
            let xOffset = Self.roundedToPixel(position.x_offset), yOffset = Self.roundedToPixel(-position.y_offset)
            glyphs.append(Glyph(id: id, x: pen &+ xOffset, y: yOffset, cluster: Int(infos[index].cluster)))
            // The ink box of the glyphs, joined as pango_glyph_string_extents_range joins them.
            let box = Self.inkBox(of: id, in: plainFont)
            if box.width != 0, box.height != 0 {
                let left = pen &+ box.x &+ xOffset, top = box.y &+ yOffset
                if ink.width == 0 || ink.height == 0 {
                    ink = (left, top, box.width, box.height)
                } else {
                    let newX = min(ink.x, left), newY = min(ink.y, top)
                    ink.width = max(ink.x &+ ink.width, left &+ box.width) &- newX
                    ink.height = max(ink.y &+ ink.height, top &+ box.height) &- newY
                    (ink.x, ink.y) = (newX, newY)
                }
            }
            pen = pen &+ width
        }
        guard ink.width != 0, ink.height != 0 else { return nil }
        let unit = Double(MC_PANGO_SCALE)
        self.text = text
        self.font = plainFont
        self.glyphs = glyphs
        baseline = plainFont.ascender
        extents = TextExtents(width: Double(pen) / unit, ascent: Double(plainFont.ascender) / unit,
                              descent: -Double(plainFont.descender) / unit,
                              inkLeft: Double(ink.x) / unit, inkTop: Double(ink.y) / unit,
                              inkRight: (Double(ink.x) + Double(ink.width)) / unit,
                              inkBottom: (Double(ink.y) + Double(ink.height)) / unit)
    }

    /// HarfBuzz's script for `text` as Pango itemizes it, or nil when a character is not plain:
    /// Latin where a letter is Latin, Common where every character is common to all scripts
    /// (digits, spaces, punctuation, symbols).
    static func script(of text: String) -> UInt32? {
        var latin = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x41...0x5A, 0x61...0x7A, 0xAA, 0xBA, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x24F:
                latin = true
            case 0x20...0x7E, 0xA1...0xAC, 0xAE...0xBF, 0xD7, 0xF7, 0x2010...0x2015, 0x2018...0x201F,
                 0x2020...0x2022, 0x2026, 0x2030, 0x2039, 0x203A, 0x20AC, 0x2122:
                continue
            default:
                return nil
            }
        }
        return latin ? MC_HB_SCRIPT_LATIN : MC_HB_SCRIPT_COMMON
    }

    /// `units` rounded to whole pixels of Pango units, as PANGO_UNITS_ROUND does.
    static func roundedToPixel(_ units: Int32) -> Int32 {
        (units &+ Int32(MC_PANGO_SCALE / 2)) & ~Int32(MC_PANGO_SCALE - 1)
    }

    /// The ink box of glyph `id` drawn at the origin, in Pango units, as Pango Cairo measures it.
    private static func inkBox(of id: UInt32, in font: PlainTextFont) -> (x: Int32, y: Int32, width: Int32, height: Int32) {
        var glyph = cairo_glyph_t(index: UInt(id), x: 0, y: 0)
        var measured = cairo_text_extents_t()
        cairo_scaled_font_glyph_extents(font.scaledFont, &glyph, 1, &measured)
        return (units(measured.x_bearing), units(measured.y_bearing), units(measured.width), units(measured.height))
    }

    /// `pixels` in Pango units, as pango_units_from_double converts them.
    private static func units(_ pixels: Double) -> Int32 {
        Int32(clamping: Int64((pixels * Double(MC_PANGO_SCALE) + 0.5).rounded(.down)))
    }

    /// The line's clusters for `cairo_show_text_glyphs`, as Pango Cairo makes them for a run left
    /// to right: each run of glyphs of one cluster with the bytes of the text up to the next.
    var cairoClusters: [cairo_text_cluster_t] {
        var clusters: [cairo_text_cluster_t] = []
        var index = 0
        while index < glyphs.count {
            let start = glyphs[index].cluster
            var end = index + 1
            while end < glyphs.count, glyphs[end].cluster == start { end += 1 }
            let next = end < glyphs.count ? glyphs[end].cluster : text.utf8.count
            clusters.append(cairo_text_cluster_t(num_bytes: Int32(clamping: next - start), num_glyphs: Int32(end - index)))
            index = end
        }
        return clusters
    }

    /// Cairo's glyphs for the line with the left end of its logical box's top at the current
    /// point of `cr`, placed as Pango Cairo places a run's glyphs (from the current point as
    /// Cairo reports it, the baseline below it).
    func cairoGlyphs(at cr: OpaquePointer) -> [cairo_glyph_t] {
        var left = 0.0, top = 0.0
        cairo_get_current_point(cr, &left, &top)
        let unit = Double(MC_PANGO_SCALE)
        let baseY = top + Double(baseline) / unit
        return glyphs.map { glyph in
            cairo_glyph_t(index: UInt(glyph.id), x: left + Double(glyph.x) / unit,
                          y: glyph.y == 0 ? baseY : baseY + Double(glyph.y) / unit)
        }
    }
}
