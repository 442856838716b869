import CCairo
import CHarfBuzzLoader
import CPangoLoader
import Foundation

/// The font a `PlainTextLine` is set in: the font fontconfig matches first for a `TextFont` and
/// a language, which is the font Pango tries first for every character, made as Pango makes it:
/// a HarfBuzz font at the size in Pango units (for shaping) and a Cairo scaled font at the size
/// in pixels with `TextEngine`'s options (for measuring and drawing glyphs).
///
/// Made once per font and language and kept to the end of the process; nil where the plain
/// path cannot stand in for Pango: HarfBuzz missing, no font matched, or a font Pango would
/// alter (variation axes, a transformation matrix, synthetic emboldening).
final class PlainTextFont: @unchecked Sendable {
    /// The HarfBuzz font, its scale the size in Pango units. HarfBuzz fonts may shape on many
    /// threads at once.
    let shapingFont: OpaquePointer
    /// The Cairo scaled font glyphs are measured with and drawn in (thread-safe, as Cairo's
    /// scaled fonts are).
    let scaledFont: OpaquePointer
    /// The font's ascender and descender at its size, in Pango units (HarfBuzz's, as Pango
    /// Cairo takes them).
    let ascender: Int32, descender: Int32
    /// The characters the font has (fontconfig's character set, which Pango's coverage is).
    private let characters: OpaquePointer

    deinit {
        mc_hb_font_destroy(shapingFont)
        cairo_scaled_font_destroy(scaledFont)
        FcCharSetDestroy(characters)
    }

    /// True when the font has a glyph for `scalar`.
    func has(_ scalar: Unicode.Scalar) -> Bool { FcCharSetHasChar(characters, scalar.value) != 0 }

    /// The font for `font` and `language` (a Pango language tag); nil where the plain path
    /// cannot set text in it (see the type's comment).
    static func font(for font: TextFont, language: String) -> PlainTextFont? {
        let key = Key(font: font, language: language)
        lock.lock()
        defer { lock.unlock() }
        if let made = made[key] { return made }
        let result = PlainTextFont(font, language: language)
        made[key] = .some(result)
        return result
    }

    private struct Key: Hashable {
        let font: TextFont
        let language: String
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var made: [Key: PlainTextFont?] = [:]

    /// Pango's resolution for absolute sizes, in dots per inch (Pango Cairo's default).
    private static let resolution = 96.0

    private init?(_ font: TextFont, language: String) {
        var why = [CChar](repeating: 0, count: 512)
        guard mc_harfbuzz_load(&why, why.count) == 0, FontConfiguration.ready,
              let options = try? TextEngine.makeFontOptions() else { return nil }
        defer { cairo_font_options_destroy(options) }
        // The size Pango sets the font at.
        let pixels = font.pangoUnits / Double(MC_PANGO_SCALE)
        guard let match = Self.match(font, pixels: pixels, language: language, options: options) else { return nil }
        defer { FcPatternDestroy(match) }
        var file: UnsafeMutablePointer<FcChar8>?
        var index: Int32 = 0, embolden: FcBool = 0
        var matrix: UnsafeMutablePointer<FcMatrix>?
        var charset: OpaquePointer?
        guard FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch, let file,
              FcPatternGetCharSet(match, FC_CHARSET, 0, &charset) == FcResultMatch, let charset,
              FcPatternGetMatrix(match, FC_MATRIX, 0, &matrix) != FcResultMatch,
              FcPatternGetBool(match, FC_EMBOLDEN, 0, &embolden) != FcResultMatch || embolden == 0 else { return nil }
        if FcPatternGetInteger(match, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
        // HarfBuzz's font, as Pango makes it from the same file: scaled to Pango units.
        guard let blob = file.withMemoryRebound(to: CChar.self, capacity: 1, { mc_hb_blob_create_from_file($0) }) else {
            return nil
        }
        defer { mc_hb_blob_destroy(blob) }
        guard mc_hb_blob_get_length(blob) > 0, let face = mc_hb_face_create(blob, UInt32(max(index, 0))) else { return nil }
        defer { mc_hb_face_destroy(face) }
        guard mc_hb_ot_var_get_axis_count(face) == 0, let shaping = mc_hb_font_create(face) else { return nil }
        let scale = Int32(pixels * Double(MC_PANGO_SCALE))
        mc_hb_font_set_scale(shaping, scale, scale)
        mc_hb_font_set_ptem(shaping, Float(pixels * 72 / Self.resolution))
        var extents = mc_hb_font_extents()
        mc_hb_font_get_h_extents(shaping, &extents)
        // Cairo's scaled font, as Pango Cairo makes it: the matched pattern's face at the size
        // in pixels, no transformation, the text options.
        guard let fontFace = cairo_ft_font_face_create_for_pattern(match) else {
            mc_hb_font_destroy(shaping)
            return nil
        }
        defer { cairo_font_face_destroy(fontFace) }
        var fontMatrix = cairo_matrix_t(), identity = cairo_matrix_t()
        cairo_matrix_init_scale(&fontMatrix, pixels, pixels)
        cairo_matrix_init_identity(&identity)
        guard cairo_font_face_status(fontFace) == CAIRO_STATUS_SUCCESS,
              let scaled = cairo_scaled_font_create(fontFace, &fontMatrix, &identity, options),
              cairo_scaled_font_status(scaled) == CAIRO_STATUS_SUCCESS else {
            mc_hb_font_destroy(shaping)
            return nil
        }
        shapingFont = shaping
        scaledFont = scaled
        ascender = extents.ascender
        descender = extents.descender
        characters = FcCharSetCopy(charset)
    }

    /// The pattern fontconfig matches first for `font` as Pango asks for it (its families, weight,
    /// an upright normal-width style, the size in points and pixels at Pango's resolution, the
    /// language), after the same substitutions (the configuration's, the text options', then
    /// fontconfig's defaults); the caller destroys it.
    private static func match(_ font: TextFont, pixels: Double, language: String,
                              options: OpaquePointer) -> OpaquePointer? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        for family in font.family.split(separator: ",", omittingEmptySubsequences: false) {
            FcPatternAddString(pattern, FC_FAMILY, String(family))
        }
        FcPatternAddDouble(pattern, FC_WEIGHT, FcWeightFromOpenTypeDouble(font.bold ? 700 : 400))
        FcPatternAddInteger(pattern, FC_SLANT, FC_SLANT_ROMAN)
        FcPatternAddInteger(pattern, FC_WIDTH, FC_WIDTH_NORMAL)
        FcPatternAddBool(pattern, FC_VARIABLE, FcDontCare)
        FcPatternAddDouble(pattern, FC_DPI, resolution)
        FcPatternAddDouble(pattern, FC_SIZE, pixels * 72 / resolution)
        FcPatternAddDouble(pattern, FC_PIXEL_SIZE, pixels)
        FcPatternAddString(pattern, FC_LANG, language)
        guard FcConfigSubstitute(nil, pattern, FcMatchPattern) != 0 else { return nil }
        cairo_ft_font_options_substitute(options, pattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        return FcFontMatch(nil, pattern, &result)
    }
}
