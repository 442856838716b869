/// The size of a shaped line of text in pixels, relative to the left end of its baseline
/// (y grows downwards, so what rises above the baseline has a negative y).
struct TextExtents: Equatable, Sendable {
    /// How far the line advances: the width of its logical box.
    var width: Double
    /// From the baseline up to the top of the logical box, and down to its bottom (the fonts'
    /// ascent and descent).
    var ascent: Double, descent: Double
    /// The box of everything painted (the ink).
    var inkLeft: Double, inkTop: Double, inkRight: Double, inkBottom: Double

    var inkHeight: Double { inkBottom - inkTop }
}
