/// A line of text drawn straight (not along a path, not wrapped): set plainly where that gives
/// exactly what Pango gives (`PlainTextLine`: one run of one font, shaped by HarfBuzz alone), by
/// Pango otherwise (`TextLine`). Attributions, overlay text and the labels of GeoJSON layers are
/// set this way, so a map whose text is all plain never loads Pango.
enum StraightTextLine: Sendable {
    case plain(PlainTextLine)
    case pango(TextLine)

    /// `text` set in `font`.
    init(_ text: String, font: TextFont) throws(CairoError) {
        let text = StreamSafeText.limited(text)
        if let plain = PlainTextLine(text, font: font) {
            self = .plain(plain)
        } else {
            self = .pango(try TextLine(text, font: font))
        }
    }

    /// The size of the line around the left end of its baseline.
    var extents: TextExtents {
        switch self {
        case .plain(let line): line.extents
        case .pango(let line): line.extents
        }
    }
}
