import CPangoLoader
import Foundation

/// One line of text shaped by `TextEngine` in a `TextFont`, owning its `PangoLayout`; with a
/// wrap width, a block of lines instead, aligned to one another as `alignment` says.
///
/// Without a wrap width, line breaks in the text are drawn as characters, not obeyed; with one,
/// they are obeyed and lines wider than it break between words. Letter spacing is added
/// between clusters (Pango's letter-spacing attribute). Right-to-left runs are laid
/// out right to left; the line's own direction is that of its first strong character. Every
/// use of the layout holds `TextEngine`'s lock, so a line may be used on any thread. Extents
/// are measured from the left end of the first line's baseline.
final class TextLine: @unchecked Sendable {
    let text: String
    let font: TextFont
    /// The layout; use it only inside `TextEngine.locked`.
    let layout: OpaquePointer
    /// The size of the line around the left end of its baseline.
    let extents: TextExtents
    /// From the top left of the layout to the left end of its baseline, in pixels.
    let origin: (x: Double, y: Double)
    /// Laid out to be drawn turned a quarter turn clockwise, read top to bottom.
    let isVertical: Bool

    /// How the lines of a block line up.
    enum Alignment: Sendable {
        case left, center, right
    }

    /// `wrapWidth` and `letterSpacing` in pixels; a nil `wrapWidth` for one line. `alignment`
    /// is visual: `left` lines up the left ends whatever the direction of the text. With a wrap
    /// width, `lineHeight` (pixels) sets the lines of a block that many pixels apart, each line's
    /// text in the middle of its height, where the fonts' own line heights would set them;
    /// text that stays on one line is left as the font sets it.
    ///
    /// `vertical` sets the text to be read top to bottom once the line is drawn turned a
    /// quarter turn clockwise: the line is laid out along x as any other, with ideographs,
    /// kana, hangul and the other characters written upright in vertical text turned a quarter
    /// turn back (so they stand upright when drawn), punctuation in its vertical forms, and
    /// the characters of other scripts as they are (so they lie on their side, read top to
    /// bottom); lines of a block follow one another right to left. Pango's east gravity.
    init(_ text: String, font: TextFont, wrapWidth: Double? = nil, alignment: Alignment = .center,
         letterSpacing: Double = 0, lineHeight: Double? = nil, vertical: Bool = false) throws(CairoError) {
        let text = StreamSafeText.limited(text)
        self.text = text
        self.font = font
        self.isVertical = vertical
        (layout, extents, origin) = try TextEngine.withPango(vertical: vertical) { context in
            let layout = mc_pango_layout_new(context)!
            let description = font.makeDescription()
            defer { mc_pango_font_description_free(description) }
            mc_pango_layout_set_font_description(layout, description)
            if let wrapWidth {
                if wrapWidth.isFinite, wrapWidth > 0 {
                    mc_pango_layout_set_width(layout, Int32(min(wrapWidth, 1e5) * Double(MC_PANGO_SCALE)))
                    mc_pango_layout_set_wrap(layout, MC_PANGO_WRAP_WORD)
                }
            } else {
                mc_pango_layout_set_single_paragraph_mode(layout, 1)
            }
            // Pixels (finite) in Pango units, within what its attributes hold.
            func pangoUnits(_ pixels: Double) -> Int32 {
                Int32(min(max((pixels * Double(MC_PANGO_SCALE)).rounded(), -1e7), 1e7))
            }
            func setAttributes(lineHeight: Double?) {
                let attributes = mc_pango_attr_list_new()!
                defer { mc_pango_attr_list_unref(attributes) }
                if letterSpacing.isFinite, pangoUnits(letterSpacing) != 0 {
                    mc_pango_attr_list_insert(attributes, mc_pango_attr_letter_spacing_new(pangoUnits(letterSpacing)))
                }
                if let lineHeight {
                    mc_pango_attr_list_insert(attributes, mc_pango_attr_line_height_new_absolute(pangoUnits(lineHeight)))
                }
                mc_pango_layout_set_attributes(layout, attributes)  // the layout takes its own reference
            }
            if letterSpacing.isFinite, pangoUnits(letterSpacing) != 0 { setAttributes(lineHeight: nil) }
            text.withCString { mc_pango_layout_set_text(layout, $0, -1) }
            if wrapWidth != nil, let lineHeight, lineHeight.isFinite, lineHeight > 0, mc_pango_layout_get_line_count(layout) > 1 {
                setAttributes(lineHeight: lineHeight)
            }
            if wrapWidth != nil {
                // Pango reads left and right in the paragraph's own direction.
                let rightToLeft = mc_pango_layout_get_direction(layout, 0) == MC_PANGO_DIRECTION_RTL
                switch alignment {
                case .center: mc_pango_layout_set_alignment(layout, MC_PANGO_ALIGN_CENTER)
                case .left: mc_pango_layout_set_alignment(layout, rightToLeft ? MC_PANGO_ALIGN_RIGHT : MC_PANGO_ALIGN_LEFT)
                case .right: mc_pango_layout_set_alignment(layout, rightToLeft ? MC_PANGO_ALIGN_LEFT : MC_PANGO_ALIGN_RIGHT)
                }
            }
            var ink = mc_pango_rectangle(), logical = mc_pango_rectangle()
            mc_pango_layout_get_extents(layout, &ink, &logical)
            let baseline = Double(mc_pango_layout_get_baseline(layout)), left = Double(logical.x)
            let unit = Double(MC_PANGO_SCALE)
            let extents = TextExtents(width: Double(logical.width) / unit,
                                      ascent: (baseline - Double(logical.y)) / unit,
                                      descent: (Double(logical.y) + Double(logical.height) - baseline) / unit,
                                      inkLeft: (Double(ink.x) - left) / unit,
                                      inkTop: (Double(ink.y) - baseline) / unit,
                                      inkRight: (Double(ink.x) + Double(ink.width) - left) / unit,
                                      inkBottom: (Double(ink.y) + Double(ink.height) - baseline) / unit)
            return (layout, extents, (left / unit, baseline / unit))
        }
    }

    deinit {
        let layout = self.layout
        TextEngine.locked { mc_g_object_unref(UnsafeMutableRawPointer(layout)) }
    }

    /// The lines the layout breaks the text into (1 without a wrap width).
    var lineCount: Int {
        TextEngine.locked { Int(mc_pango_layout_get_line_count(layout)) }
    }

    /// Characters no installed font has: Pango draws them as boxes holding their code point.
    var unknownGlyphCount: Int {
        TextEngine.locked { Int(mc_pango_layout_get_unknown_glyphs_count(layout)) }
    }

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
        TextEngine.locked {
            var result: [Run] = []
            forEachRun { run, _ in
                let item = run.pointee.item.pointee, glyphs = run.pointee.glyphs.pointee
                let described = mc_pango_font_describe_with_absolute_size(item.analysis.font)
                defer { mc_pango_font_description_free(described) }
                let name = mc_pango_font_description_to_string(described)
                defer { mc_g_free(name) }
                let ids = (0..<Int(glyphs.num_glyphs)).map { glyphs.glyphs[$0].glyph }
                result.append(Run(font: name.map { String(cString: $0) } ?? "", glyphs: ids, level: Int(item.analysis.level)))
            }
            return result
        }
    }

    /// Calls `body` with each glyph run of the layout in visual order (left to right, line by
    /// line) and the run's left end in pixels from the first line's left end. The run belongs
    /// to the layout: call this only inside `TextEngine.locked` and keep no pointer past `body`.
    func forEachRun(_ body: (UnsafeMutablePointer<mc_pango_layout_run>, Double) -> Void) {
        let iterator = mc_pango_layout_get_iter(layout)!
        defer { mc_pango_layout_iter_free(iterator) }
        repeat {
            guard let run = mc_pango_layout_iter_get_run_readonly(iterator) else { continue }
            var logical = mc_pango_rectangle()
            mc_pango_layout_iter_get_run_extents(iterator, nil, &logical)
            body(run, Double(logical.x) / Double(MC_PANGO_SCALE) - origin.x)
        } while mc_pango_layout_iter_next_run(iterator) != 0
    }

    /// Glyph ids that stand for a missing glyph: a font's .notdef (0), or Pango's flag for a
    /// character no font has (PANGO_GLYPH_UNKNOWN_FLAG, a C macro with a cast, not imported).
    static func isMissing(_ glyph: UInt32) -> Bool {
        glyph == 0 || glyph & 0x1000_0000 != 0
    }

    /// The horizontal span (left, right) of the character at `utf8Offset` bytes into the text,
    /// in pixels from the line's left end.
    func characterSpan(atUTF8Offset utf8Offset: Int) -> (left: Double, right: Double) {
        var rectangle = mc_pango_rectangle()
        TextEngine.locked { mc_pango_layout_index_to_pos(layout, Int32(clamping: utf8Offset), &rectangle) }
        let a = Double(rectangle.x) / Double(MC_PANGO_SCALE) - origin.x
        let b = (Double(rectangle.x) + Double(rectangle.width)) / Double(MC_PANGO_SCALE) - origin.x
        return (min(a, b), max(a, b))
    }
}
