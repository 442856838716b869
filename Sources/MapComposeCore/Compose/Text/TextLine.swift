import CPango
import Foundation

/// One line of text shaped by `TextEngine` in a `TextFont`, owning its `PangoLayout`.
///
/// Line breaks in the text are drawn as characters, not obeyed. Right-to-left runs are laid
/// out right to left; the line's own direction is that of its first strong character. Use a
/// line on the thread that made it (see `TextEngine`).
final class TextLine {
    let text: String
    let font: TextFont
    /// The layout, its context and font map belong to the thread that made the line.
    let layout: OpaquePointer
    private let owner = pthread_self()

    init(_ text: String, font: TextFont) throws(CairoError) {
        let context = try TextEngine.makeContext()
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        layout = pango_layout_new(context)!
        self.text = text
        self.font = font
        let description = font.makeDescription()
        defer { pango_font_description_free(description) }
        pango_layout_set_font_description(layout, description)
        pango_layout_set_single_paragraph_mode(layout, 1)
        text.withCString { pango_layout_set_text(layout, $0, -1) }
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(layout))
    }

    /// True on the thread that made the line (the only one that may use it).
    var isOnOwningThread: Bool { pthread_equal(owner, pthread_self()) != 0 }

    /// The size of the line around the left end of its baseline.
    var extents: TextExtents {
        assert(isOnOwningThread, "a text line is used on the thread that made it")
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let baseline = Double(pango_layout_get_baseline(layout))
        let unit = Double(PANGO_SCALE)
        return TextExtents(width: Double(logical.width) / unit,
                           ascent: (baseline - Double(logical.y)) / unit,
                           descent: (Double(logical.y + logical.height) - baseline) / unit,
                           inkLeft: (Double(ink.x) - Double(logical.x)) / unit,
                           inkTop: (Double(ink.y) - baseline) / unit,
                           inkRight: (Double(ink.x + ink.width) - Double(logical.x)) / unit,
                           inkBottom: (Double(ink.y + ink.height) - baseline) / unit)
    }

    /// The distance from the top of the layout to its baseline, in pixels.
    var baseline: Double { Double(pango_layout_get_baseline(layout)) / Double(PANGO_SCALE) }

    /// The left edge of the layout's logical box, in pixels (zero for one line of text).
    var logicalLeft: Double {
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        return Double(logical.x) / Double(PANGO_SCALE)
    }

    /// Characters no installed font has: Pango draws them as boxes holding their code point.
    var unknownGlyphCount: Int { Int(pango_layout_get_unknown_glyphs_count(layout)) }

    /// A run of glyphs from one font, in visual order (left to right).
    struct Run: Equatable {
        /// The font, as Pango describes it ("Noto Sans Thai Bold 11px").
        let font: String
        let glyphs: [UInt32]
        /// Bidi embedding level: odd for right-to-left runs.
        let level: Int
    }

    /// The glyph runs of the line, left to right.
    var runs: [Run] {
        assert(isOnOwningThread, "a text line is used on the thread that made it")
        var result: [Run] = []
        let iterator = pango_layout_get_iter(layout)!
        defer { pango_layout_iter_free(iterator) }
        repeat {
            guard let run = pango_layout_iter_get_run_readonly(iterator) else { continue }
            let item = run.pointee.item.pointee, glyphs = run.pointee.glyphs.pointee
            let described = pango_font_describe_with_absolute_size(item.analysis.font)
            defer { pango_font_description_free(described) }
            let name = pango_font_description_to_string(described)
            defer { g_free(name) }
            let ids = (0..<Int(glyphs.num_glyphs)).map { glyphs.glyphs[$0].glyph }
            result.append(Run(font: name.map { String(cString: $0) } ?? "", glyphs: ids, level: Int(item.analysis.level)))
        } while pango_layout_iter_next_run(iterator) != 0
        return result
    }

    /// Glyph ids that stand for a missing glyph: a font's .notdef (0), or Pango's flag for a
    /// character no font has (PANGO_GLYPH_UNKNOWN_FLAG, a C macro with a cast, not imported).
    static func isMissing(_ glyph: UInt32) -> Bool {
        glyph == 0 || glyph & 0x1000_0000 != 0
    }

    /// The horizontal span (left, right) of the character at `utf8Offset` bytes into the text,
    /// in pixels from the line's left end.
    func characterSpan(atUTF8Offset utf8Offset: Int) -> (left: Double, right: Double) {
        var rectangle = PangoRectangle()
        pango_layout_index_to_pos(layout, Int32(utf8Offset), &rectangle)
        let a = Double(rectangle.x) / Double(PANGO_SCALE), b = Double(rectangle.x + rectangle.width) / Double(PANGO_SCALE)
        return (min(a, b), max(a, b))
    }
}
