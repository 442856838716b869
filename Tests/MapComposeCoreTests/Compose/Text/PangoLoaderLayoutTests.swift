import CPango
import CPangoLoader
import Testing

/// CPangoLoader declares Pango's public structures and constants itself (so that mapcompose need
/// not link Pango); each must lay out exactly as Pango's own headers do.
@Suite struct PangoLoaderLayoutTests {
    @Test func structuresLayOutAsPangosOwn() {
        expectSameShape(mc_pango_rectangle.self, PangoRectangle.self)
        #expect(MemoryLayout<mc_pango_rectangle>.offset(of: \.x) == MemoryLayout<PangoRectangle>.offset(of: \.x))
        #expect(MemoryLayout<mc_pango_rectangle>.offset(of: \.y) == MemoryLayout<PangoRectangle>.offset(of: \.y))
        #expect(MemoryLayout<mc_pango_rectangle>.offset(of: \.width) == MemoryLayout<PangoRectangle>.offset(of: \.width))
        #expect(MemoryLayout<mc_pango_rectangle>.offset(of: \.height) == MemoryLayout<PangoRectangle>.offset(of: \.height))

        expectSameShape(mc_pango_glyph_geometry.self, PangoGlyphGeometry.self)
        #expect(MemoryLayout<mc_pango_glyph_geometry>.offset(of: \.width) == MemoryLayout<PangoGlyphGeometry>.offset(of: \.width))
        #expect(MemoryLayout<mc_pango_glyph_geometry>.offset(of: \.x_offset) == MemoryLayout<PangoGlyphGeometry>.offset(of: \.x_offset))
        #expect(MemoryLayout<mc_pango_glyph_geometry>.offset(of: \.y_offset) == MemoryLayout<PangoGlyphGeometry>.offset(of: \.y_offset))

        expectSameShape(mc_pango_glyph_info.self, PangoGlyphInfo.self)
        #expect(MemoryLayout<mc_pango_glyph_info>.offset(of: \.glyph) == MemoryLayout<PangoGlyphInfo>.offset(of: \.glyph))
        #expect(MemoryLayout<mc_pango_glyph_info>.offset(of: \.geometry) == MemoryLayout<PangoGlyphInfo>.offset(of: \.geometry))
        #expect(MemoryLayout<mc_pango_glyph_info>.offset(of: \.attr) == MemoryLayout<PangoGlyphInfo>.offset(of: \.attr))
        #expect(MemoryLayout<UInt32>.size == MemoryLayout<PangoGlyphVisAttr>.size)

        expectSameShape(mc_pango_glyph_string.self, PangoGlyphString.self)
        #expect(MemoryLayout<mc_pango_glyph_string>.offset(of: \.num_glyphs) == MemoryLayout<PangoGlyphString>.offset(of: \.num_glyphs))
        #expect(MemoryLayout<mc_pango_glyph_string>.offset(of: \.glyphs) == MemoryLayout<PangoGlyphString>.offset(of: \.glyphs))
        #expect(MemoryLayout<mc_pango_glyph_string>.offset(of: \.log_clusters) == MemoryLayout<PangoGlyphString>.offset(of: \.log_clusters))
        #expect(MemoryLayout<mc_pango_glyph_string>.offset(of: \.space) == MemoryLayout<PangoGlyphString>.offset(of: \.space))

        expectSameShape(mc_pango_analysis.self, PangoAnalysis.self)
        #expect(MemoryLayout<mc_pango_analysis>.offset(of: \.font) == MemoryLayout<PangoAnalysis>.offset(of: \.font))
        #expect(MemoryLayout<mc_pango_analysis>.offset(of: \.level) == MemoryLayout<PangoAnalysis>.offset(of: \.level))
        #expect(MemoryLayout<mc_pango_analysis>.offset(of: \.script) == MemoryLayout<PangoAnalysis>.offset(of: \.script))
        #expect(MemoryLayout<mc_pango_analysis>.offset(of: \.language) == MemoryLayout<PangoAnalysis>.offset(of: \.language))
        #expect(MemoryLayout<mc_pango_analysis>.offset(of: \.extra_attrs) == MemoryLayout<PangoAnalysis>.offset(of: \.extra_attrs))

        expectSameShape(mc_pango_item.self, PangoItem.self)
        #expect(MemoryLayout<mc_pango_item>.offset(of: \.num_chars) == MemoryLayout<PangoItem>.offset(of: \.num_chars))
        #expect(MemoryLayout<mc_pango_item>.offset(of: \.analysis) == MemoryLayout<PangoItem>.offset(of: \.analysis))

        expectSameShape(mc_pango_layout_run.self, PangoLayoutRun.self)
        #expect(MemoryLayout<mc_pango_layout_run>.offset(of: \.item) == MemoryLayout<PangoLayoutRun>.offset(of: \.item))
        #expect(MemoryLayout<mc_pango_layout_run>.offset(of: \.glyphs) == MemoryLayout<PangoLayoutRun>.offset(of: \.glyphs))
        #expect(MemoryLayout<mc_pango_layout_run>.offset(of: \.end_x_offset) == MemoryLayout<PangoLayoutRun>.offset(of: \.end_x_offset))
    }

    @Test func constantsAreAsPangosOwn() {
        #expect(MC_PANGO_SCALE == PANGO_SCALE)
        #expect(UInt32(MC_PANGO_WRAP_WORD) == PANGO_WRAP_WORD.rawValue)
        #expect(UInt32(MC_PANGO_ALIGN_LEFT) == PANGO_ALIGN_LEFT.rawValue)
        #expect(UInt32(MC_PANGO_ALIGN_CENTER) == PANGO_ALIGN_CENTER.rawValue)
        #expect(UInt32(MC_PANGO_ALIGN_RIGHT) == PANGO_ALIGN_RIGHT.rawValue)
        #expect(UInt32(MC_PANGO_DIRECTION_RTL) == PANGO_DIRECTION_RTL.rawValue)
        #expect(UInt32(MC_PANGO_WEIGHT_NORMAL) == PANGO_WEIGHT_NORMAL.rawValue)
        #expect(UInt32(MC_PANGO_WEIGHT_BOLD) == PANGO_WEIGHT_BOLD.rawValue)
        #expect(UInt32(MC_PANGO_GRAVITY_SOUTH) == PANGO_GRAVITY_SOUTH.rawValue)
        #expect(UInt32(MC_PANGO_GRAVITY_EAST) == PANGO_GRAVITY_EAST.rawValue)
    }

    @Test func loadingFindsEveryFunction() {
        var why = [CChar](repeating: 0, count: 512)
        let status = mc_pango_load(&why, why.count)
        #expect(status == 0, "\(String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
    }
}
