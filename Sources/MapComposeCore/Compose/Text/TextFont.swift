import CPangoLoader

/// The font text is set in: a fontconfig family, a size in pixels and a weight.
///
/// The family is a name fontconfig matches (or a comma-separated list of them); characters it
/// lacks come from the fonts fontconfig sorts after it for their script (Noto Sans Arabic,
/// Devanagari, Thai, CJK and so on), so any script with an installed font is drawn.
struct TextFont: Hashable, Sendable {
    /// The family of labels, overlays and the attribution.
    static let defaultFamily = "Noto Sans"

    var family: String
    /// The em size in pixels of the drawing's user space (as Cairo's font size).
    var size: Double
    var bold: Bool

    init(family: String = TextFont.defaultFamily, size: Double, bold: Bool = false) {
        self.family = family
        self.size = size
        self.bold = bold
    }

    /// Pango's description of this font, owned by the caller (`pango_font_description_free`).
    func makeDescription() -> OpaquePointer {
        let description = mc_pango_font_description_new()!
        mc_pango_font_description_set_family(description, family)
        mc_pango_font_description_set_weight(description, bold ? MC_PANGO_WEIGHT_BOLD : MC_PANGO_WEIGHT_NORMAL)
        mc_pango_font_description_set_absolute_size(description, pangoUnits)
        return description
    }

    /// The size as Pango is given it: whole Pango units, 1…10⁹ (1 for a size that is not finite).
    var pangoUnits: Double {
        let units = (size * Double(MC_PANGO_SCALE)).rounded()
        return units.isFinite ? min(max(units, 1), 1e9) : 1
    }
}
