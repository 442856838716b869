import CCairo

/// A sprite icon stretched round its text (`icon-text-fit`), as MapLibre stretches it: the
/// icon's content box (`content` in the sprite's index, else the whole icon) is laid over the
/// fitted rectangle; only the stretch zones (`stretchX`, `stretchY`; none: the whole icon)
/// grow, all at the rate that makes the content box fit, and the rest keeps the icon's own
/// scale. Where the rectangle is shorter than the content's fixed parts, the icon is scaled
/// evenly instead.
struct FittedIcon {
    /// One stretch of one axis: image pixels `source` drawn over device pixels `target`.
    struct Piece: Equatable {
        let source: ClosedRange<Double>
        let target: ClosedRange<Double>
    }

    let icon: SpriteIcon
    /// The pieces across and down.
    let columns: [Piece]
    let rows: [Piece]

    /// `icon` with its content box over `left`…`right` and `top`…`bottom` (device pixels) along
    /// the axes it is fitted in (`fitsWidth`, `fitsHeight`), its fixed parts `scale` device
    /// pixels per image pixel; along an axis it is not fitted in, the whole icon over the span,
    /// evenly.
    init(_ icon: SpriteIcon, left: Double, top: Double, right: Double, bottom: Double, scale: Double,
         fitsWidth: Bool, fitsHeight: Bool) {
        self.icon = icon
        // Nothing to draw where the rectangle or the scale is not a number a map can hold.
        guard [left, top, right, bottom].allSatisfy({ $0.isFinite && abs($0) < 1e9 }), scale.isFinite, scale > 0 else {
            (columns, rows) = ([], [])
            return
        }
        let content = icon.content
        columns = Self.pieces(size: Double(icon.image.width), zones: fitsWidth ? icon.stretchX : [],
                              content: fitsWidth ? content.map { $0.left...$0.right } : nil, fit: left...max(left, right),
                              scale: scale)
        rows = Self.pieces(size: Double(icon.image.height), zones: fitsHeight ? icon.stretchY : [],
                           content: fitsHeight ? content.map { $0.top...$0.bottom } : nil, fit: top...max(top, bottom),
                           scale: scale)
    }

    /// The rectangle the whole icon covers, device pixels.
    var bounds: (x0: Double, y0: Double, x1: Double, y1: Double) {
        (columns.first?.target.lowerBound ?? 0, rows.first?.target.lowerBound ?? 0,
         columns.last?.target.upperBound ?? 0, rows.last?.target.upperBound ?? 0)
    }

    /// The pieces of an axis `size` image pixels long whose `content` part (the whole axis when
    /// nil) is drawn over `fit`, `zones` stretching.
    static func pieces(size: Double, zones: [ClosedRange<Double>], content: ClosedRange<Double>?,
                       fit: ClosedRange<Double>, scale: Double) -> [Piece] {
        let content = content ?? 0...size
        func stretching(_ range: ClosedRange<Double>) -> Double {
            zones.reduce(0) { sum, zone in
                sum + max(0, min(zone.upperBound, range.upperBound) - max(zone.lowerBound, range.lowerBound))
            }
        }
        let length = fit.upperBound - fit.lowerBound, contentLength = content.upperBound - content.lowerBound
        let contentStretch = stretching(content), contentFixed = contentLength - contentStretch
        guard contentStretch > 0, length >= contentFixed * scale else {
            let even = contentLength > 0 ? length / contentLength : scale
            let start = fit.lowerBound - content.lowerBound * even
            return [Piece(source: 0...size, target: start...(start + size * even))]
        }
        let rate = (length - contentFixed * scale) / contentStretch
        let before = stretching(0...content.lowerBound)
        var source = 0.0, target = fit.lowerBound - (content.lowerBound - before) * scale - before * rate
        var result: [Piece] = []
        func add(to end: Double, perPixel: Double) {
            guard end > source else { return }
            let next = target + (end - source) * perPixel
            result.append(Piece(source: source...end, target: target...next))
            (source, target) = (end, next)
        }
        for zone in zones {
            add(to: zone.lowerBound, perPixel: scale)
            add(to: zone.upperBound, perPixel: rate)
        }
        add(to: size, perPixel: scale)
        return result
    }

    /// Draws the icon at `alpha`: each piece from a view of its own pixels, its edges padded
    /// with their own (so a stretched middle takes no colour from the border beside it), all
    /// added up in a group (pieces that share an edge inside a pixel share its coverage), so
    /// they meet without seams.
    func draw(on cr: OpaquePointer, alpha: Double) {
        let image = icon.image, box = bounds
        cairo_save(cr)
        // The group is only as large as the icon.
        cairo_rectangle(cr, box.x0.rounded(.down), box.y0.rounded(.down),
                        box.x1.rounded(.up) - box.x0.rounded(.down), box.y1.rounded(.up) - box.y0.rounded(.down))
        cairo_clip(cr)
        cairo_push_group(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_ADD)
        for row in rows {
            for column in columns {
                let sx = (column.target.upperBound - column.target.lowerBound) / (column.source.upperBound - column.source.lowerBound)
                let sy = (row.target.upperBound - row.target.lowerBound) / (row.source.upperBound - row.source.lowerBound)
                let x = Int(column.source.lowerBound), y = Int(row.source.lowerBound)
                let width = Int(column.source.upperBound) - x, height = Int(row.source.upperBound) - y
                guard sx > 0, sy > 0, sx.isFinite, sy.isFinite, width > 0, height > 0,
                      let piece = try? image.cellView(x: x, y: y, width: width, height: height, slab: nil) else { continue }
                cairo_save(cr)
                cairo_rectangle(cr, column.target.lowerBound, row.target.lowerBound,
                                column.target.upperBound - column.target.lowerBound, row.target.upperBound - row.target.lowerBound)
                cairo_clip(cr)
                cairo_translate(cr, column.target.lowerBound, row.target.lowerBound)
                cairo_scale(cr, sx, sy)
                cairo_set_source_surface(cr, piece.surface, 0, 0)
                cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
                cairo_pattern_set_filter(cairo_get_source(cr), min(sx, sy) >= 0.5 ? CAIRO_FILTER_BILINEAR : CAIRO_FILTER_GOOD)
                cairo_paint(cr)
                cairo_restore(cr)
            }
        }
        cairo_pop_group_to_source(cr)
        cairo_paint_with_alpha(cr, alpha)
        cairo_restore(cr)
    }
}
