import CHarfBuzzLoader
import CPango
import Testing

/// CHarfBuzzLoader declares HarfBuzz's public structures and constants itself (so that
/// mapcompose need not link HarfBuzz); each must lay out exactly as HarfBuzz's own headers do
/// (which Pango's headers include).
@Suite struct HarfBuzzLoaderLayoutTests {
    @Test func structuresLayOutAsHarfBuzzsOwn() {
        expectSameShape(mc_hb_glyph_info.self, hb_glyph_info_t.self)
        #expect(MemoryLayout<mc_hb_glyph_info>.offset(of: \.codepoint) == MemoryLayout<hb_glyph_info_t>.offset(of: \.codepoint))
        #expect(MemoryLayout<mc_hb_glyph_info>.offset(of: \.cluster) == MemoryLayout<hb_glyph_info_t>.offset(of: \.cluster))

        expectSameShape(mc_hb_glyph_position.self, hb_glyph_position_t.self)
        #expect(MemoryLayout<mc_hb_glyph_position>.offset(of: \.x_advance) == MemoryLayout<hb_glyph_position_t>.offset(of: \.x_advance))
        #expect(MemoryLayout<mc_hb_glyph_position>.offset(of: \.y_advance) == MemoryLayout<hb_glyph_position_t>.offset(of: \.y_advance))
        #expect(MemoryLayout<mc_hb_glyph_position>.offset(of: \.x_offset) == MemoryLayout<hb_glyph_position_t>.offset(of: \.x_offset))
        #expect(MemoryLayout<mc_hb_glyph_position>.offset(of: \.y_offset) == MemoryLayout<hb_glyph_position_t>.offset(of: \.y_offset))

        expectSameShape(mc_hb_font_extents.self, hb_font_extents_t.self)
        #expect(MemoryLayout<mc_hb_font_extents>.offset(of: \.ascender) == MemoryLayout<hb_font_extents_t>.offset(of: \.ascender))
        #expect(MemoryLayout<mc_hb_font_extents>.offset(of: \.descender) == MemoryLayout<hb_font_extents_t>.offset(of: \.descender))
        #expect(MemoryLayout<mc_hb_font_extents>.offset(of: \.line_gap) == MemoryLayout<hb_font_extents_t>.offset(of: \.line_gap))
    }

    @Test func constantsAreAsHarfBuzzsOwn() {
        #expect(UInt32(MC_HB_DIRECTION_LTR) == HB_DIRECTION_LTR.rawValue)
        #expect(UInt32(MC_HB_BUFFER_FLAG_BOT) == HB_BUFFER_FLAG_BOT.rawValue)
        #expect(UInt32(MC_HB_BUFFER_FLAG_EOT) == HB_BUFFER_FLAG_EOT.rawValue)
        #expect(UInt32(MC_HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS) == HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS.rawValue)
        #expect(MC_HB_SCRIPT_LATIN == HB_SCRIPT_LATIN.rawValue)
        #expect(MC_HB_SCRIPT_COMMON == HB_SCRIPT_COMMON.rawValue)
    }
}
