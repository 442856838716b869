import CCairo
import Foundation
import MapLibreStyleSpec

/// How one symbol layer's labels are placed: the collision rules of its text and icons, which
/// of them may be kept alone, and how text along lines is set.
struct SymbolLayerRules {
    typealias Rule = (overlap: CollisionGrid.Overlap, ignore: Bool)

    /// `text-overlap` (or `text-allow-overlap`), `text-ignore-placement`; the same for icons.
    let text: Rule
    let icon: Rule
    /// `text-optional`: the icon is kept without its text where the text does not fit;
    /// `icon-optional`, the other way round.
    let textOptional: Bool
    let iconOptional: Bool
    /// Along lines, text aligned to the viewport (`text-rotation-alignment`) is set level at
    /// each anchor, not bent along the line.
    let levelAlongLines: Bool
    let curve: CurvedText.Rules
    /// The order symbols are placed in, as MapLibre takes them (`symbol-z-order`): by
    /// `symbol-sort-key` where the layer has one (unless `viewport-y`), bottom of the map first
    /// for `viewport-y`, else in the order of the data.
    let placementOrder: PlacementOrder
    /// Kept symbols drawn from the top of the map down, so that lower ones overlap higher ones
    /// (`symbol-z-order` `viewport-y`, or `auto` without a sort key, where symbols may overlap:
    /// an allow-overlap or ignore-placement flag set); else in the order they were placed.
    let drawsTopDown: Bool

    enum PlacementOrder {
        case sortKey, bottomFirst, data
    }

    init(_ layer: MapLibreLayer, _ ctx: EvaluationContext) {
        func flag(_ name: String) -> Bool { layer.value(name, ctx).boolean ?? false }
        func overlap(_ kind: String) -> CollisionGrid.Overlap {
            switch layer.properties["\(kind)-overlap"] == nil ? nil : layer.string("\(kind)-overlap", ctx) {
            case "always": .always
            case "cooperative": .cooperative
            case "never": .never
            default: flag("\(kind)-allow-overlap") ? .always : .never
            }
        }
        text = (overlap("text"), flag("text-ignore-placement"))
        icon = (overlap("icon"), flag("icon-ignore-placement"))
        textOptional = flag("text-optional")
        iconOptional = flag("icon-optional")
        let alignment = layer.string("text-rotation-alignment", ctx)
        levelAlongLines = alignment == "viewport"
        let zOrder = layer.string("symbol-z-order", ctx) ?? "auto"
        let sortsByKey = zOrder != "viewport-y" && layer.properties["symbol-sort-key"] != nil
        placementOrder = zOrder == "viewport-y" ? .bottomFirst : sortsByKey ? .sortKey : .data
        let mayOverlap = text.overlap != .never || icon.overlap != .never || text.ignore || icon.ignore
        drawsTopDown = mayOverlap && (zOrder == "viewport-y" || (zOrder == "auto" && !sortsByKey))
        curve = CurvedText.Rules(maxAngle: layer.number("text-max-angle", ctx) * .pi / 180,
                                 keepUpright: layer.value("text-keep-upright", ctx).boolean ?? true, padding: 0, offset: .zero,
                                 uprightClusters: alignment == "viewport-glyph")
    }
}

extension MapLibrePainter {
    /// Boxes a part of a symbol takes, each with its collision rule.
    typealias CollisionBoxes = [(box: CollisionGrid.Box, overlap: CollisionGrid.Overlap, ignore: Bool)]

    /// A symbol's icon where it would go, with its boxes.
    struct IconChoice {
        let boxes: CollisionBoxes
        let icon: MapLibreLabel.PlacedIcon
    }

    /// One place a symbol's text may take, with its boxes, and the icon fitted round the text
    /// there (`icon-text-fit`).
    struct TextChoice {
        let boxes: CollisionBoxes
        let text: MapLibreLabel.Text
        let fittedIcon: IconChoice?
    }

    /// `icon` at `candidate`'s point: anchored, offset, turned by `icon-rotate` and, along lines,
    /// to the line (unless aligned to the viewport).
    func iconChoice(_ icon: SymbolIcon, for candidate: SymbolCandidate, rules: SymbolLayerRules) -> IconChoice {
        let width = Double(icon.image.width) * icon.scale, height = Double(icon.image.height) * icon.scale
        let (left, top) = Self.corner(icon.anchor, width: width, height: height)
        var lineAngle = icon.followsLine ? candidate.along.map { $0.path.position(at: $0.distance).angle } ?? 0 : 0
        if icon.keepUpright, cos(lineAngle) < 0 { lineAngle += .pi }
        let angle = icon.rotate + lineAngle
        let x = icon.offset.x + left, y = icon.offset.y + top
        let middle = Point(x + width / 2, y + height / 2)
        let turned = Point(middle.x * cos(angle) - middle.y * sin(angle), middle.x * sin(angle) + middle.y * cos(angle))
        let pivot = candidate.point + icon.translate
        let box = Self.box(around: pivot + turned, width: width, height: height, angle: angle, pad: icon.padding)
        return IconChoice(boxes: [(box, rules.icon.overlap, rules.icon.ignore)],
                          icon: MapLibreLabel.PlacedIcon(fitted: nil, image: icon.image, pivot: pivot, x: x, y: y, angle: angle,
                                                         scale: icon.scale, alpha: icon.alpha))
    }

    /// The places `text` may take at `candidate`, in the order tried: bent along its line, or
    /// level at its point (or line anchor) at each of its anchors; none where it cannot be
    /// shaped or bent. `icon` is the symbol's icon, fitted round each place when it asks to be.
    func textChoices(_ text: SymbolText, for candidate: SymbolCandidate, icon: IconChoice?,
                     rules: SymbolLayerRules) -> [TextChoice] {
        // As in MapLibre, the box is padded by text-padding; the halo is not in it.
        let pad = text.padding, rule = rules.text
        var shapedBy: [TextLine.Alignment: TextLine] = [:], shapedVerticallyBy: [TextLine.Alignment: TextLine] = [:]
        var linesBy: [Bool: LabelLines] = [:]
        func shaped(_ alignment: TextLine.Alignment, _ mode: WritingMode = .horizontal) -> TextLine? {
            let vertical = mode == .vertical
            if let line = vertical ? shapedVerticallyBy[alignment] : shapedBy[alignment] { return line }
            let lines = linesBy[vertical] ?? Self.labelLines(text, vertical: vertical)
            linesBy[vertical] = lines
            let line = Self.shapedText(text, lines: lines, alignment: alignment, vertical: vertical)
            if vertical { shapedVerticallyBy[alignment] = line } else { shapedBy[alignment] = line }
            return line
        }
        if let along = candidate.along, !rules.levelAlongLines {
            var setting = rules.curve
            setting.padding = pad
            setting.offset = text.offset
            setting.rotate = text.rotate
            guard var line = shaped(text.justify),
                  var curved = CurvedText(line, along: along.path, at: along.distance, rules: setting) else { return [] }
            // As MapLibre does, text that may be written vertically runs top to bottom, its
            // ideographs upright, where the line runs more up or down than across under it.
            if setting.keepUpright, curved.isSteep, WritingMode.allowsVertical(text.text),
               let vertical = shaped(text.justify, .vertical),
               let steep = CurvedText(vertical, along: along.path, at: along.distance, rules: setting) {
                (line, curved) = (vertical, steep)
            }
            let t = text.translate
            let boxes = curved.boxes.map { box in (x0: box.x0 + t.x, y0: box.y0 + t.y, x1: box.x1 + t.x, y1: box.y1 + t.y) }
            let clusters = curved.clusters.map { cluster, transform in
                var moved = transform
                moved.x0 += t.x
                moved.y0 += t.y
                return (cluster, moved)
            }
            return [TextChoice(boxes: boxes.map { ($0, rule.overlap, rule.ignore) }, text: .curved(line, clusters: clusters),
                               fittedIcon: nil)]
        }
        var choices: [TextChoice] = []
        for mode in text.writingModes {
            // Vertical text is placed as MapLibre places it: laid out and anchored as a level
            // line, then the whole turned a quarter turn clockwise about the anchor (so with
            // `text-anchor: top` it stands left of its point, with `left` below it); its
            // columns line up at the top, whatever `text-justify` says.
            let angle = text.rotate + (mode == .vertical ? .pi / 2 : 0)
            for place in text.places {
                guard let line = shaped(mode == .vertical ? .left : place.justify, mode) else { break }
                let e = line.extents, height = e.ascent + e.descent
                let (left, top) = Self.corner(place.anchor, width: e.width, height: height)
                let x = candidate.point.x + text.translate.x + place.offset.x + left
                let baseline = candidate.point.y + text.translate.y + place.offset.y + top + e.ascent
                let level = Point(x + e.width / 2, baseline - e.ascent + height / 2)
                // Turned by text-rotate about the anchor (where text-translate has moved it).
                let pivot = candidate.point + text.translate
                let middle = angle == 0 ? level : pivot + Self.turned(level - pivot, by: angle)
                // MapLibre's box is text-line-height per line, not the font's own height.
                let boxHeight = text.lineHeight > 0 ? Double(line.lineCount) * text.lineHeight : height
                let across = mode == .vertical ? (width: boxHeight, height: e.width) : (width: e.width, height: boxHeight)
                let fitted = candidate.icon.flatMap { symbolIcon in
                    icon.flatMap {
                        fittedIcon(symbolIcon, $0, around: middle - text.translate, width: across.width, height: across.height)
                    }
                }
                let box = Self.box(around: middle, width: e.width, height: boxHeight, angle: angle, pad: pad)
                choices.append(TextChoice(boxes: [(box, rule.overlap, rule.ignore)],
                                          text: .straight(line, x: x, y: baseline, angle: angle, pivot: pivot),
                                          fittedIcon: fitted))
            }
        }
        return choices
    }

    /// Where a point label's lines break, found once for all the alignments it is shaped with.
    enum LabelLines {
        /// No wrap width (one line, or lines obeyed but not wrapped), or text too long to choose
        /// its breaks: Pango wraps it, each line as long as it may be.
        case wrappedByPango
        /// It stays one line: this one, shaped.
        case one(TextLine)
        /// Broken where MapLibre breaks it: lines joined by line breaks.
        case broken(String)
        /// It could not be shaped.
        case unshaped
    }

    /// How `text` breaks into lines (`LabelLineBreaks`, measured on the text shaped as one line).
    static func labelLines(_ text: SymbolText, vertical: Bool) -> LabelLines {
        guard let width = text.wrapWidth, width > 0, width.isFinite,
              text.text.unicodeScalars.count <= LabelLineBreaks.maxCharacters else { return .wrappedByPango }
        guard let single = try? TextLine(text.text, font: text.font, letterSpacing: text.letterSpacing, vertical: vertical)
        else { return .unshaped }
        let scalars = Array(text.text.unicodeScalars)
        var offsets: [Int] = [], offset = 0
        for scalar in scalars {
            offsets.append(offset)
            offset += UTF8.width(scalar)
        }
        let broken = LabelLineBreaks.broken(text.text, maxWidth: width) { index in
            guard scalars[index] != "\n" else { return 0 }
            let span = single.characterSpan(atUTF8Offset: offsets[index])
            return span.right - span.left
        } ?? text.text
        return broken.contains("\n") ? .broken(broken) : .one(single)
    }

    /// `text` shaped for a point label (or along a line, as one line) with its `lines`,
    /// `text-line-height` apart and lined up as `alignment` says.
    static func shapedText(_ text: SymbolText, lines: LabelLines, alignment: TextLine.Alignment, vertical: Bool) -> TextLine? {
        switch lines {
        case .wrappedByPango:
            return try? TextLine(text.text, font: text.font, wrapWidth: text.wrapWidth, alignment: alignment,
                                 letterSpacing: text.letterSpacing, lineHeight: text.lineHeight, vertical: vertical)
        case .one(let line):
            return line
        case .broken(let broken):
            // Lines obeyed, never wrapped again.
            return try? TextLine(broken, font: text.font, wrapWidth: .infinity, alignment: alignment,
                                 letterSpacing: text.letterSpacing, lineHeight: text.lineHeight, vertical: vertical)
        case .unshaped:
            return nil
        }
    }

    /// `icon` stretched round text `width` × `height` pixels whose middle is `middle` (before
    /// `text-translate`), as `icon-text-fit` asks; nil when it does not ask or the rectangle is
    /// not one a map can hold. `plain` is the icon where it would go unfitted, with its
    /// collision rule.
    func fittedIcon(_ icon: SymbolIcon, _ plain: IconChoice, around middle: Point, width: Double, height: Double) -> IconChoice? {
        guard let fit = icon.fit else { return nil }
        let natural = (x: Double(icon.image.width) * icon.scale / 2, y: Double(icon.image.height) * icon.scale / 2)
        let centre = middle + icon.offset + icon.translate
        let (x0, x1) = fit.width ? (centre.x - width / 2 - fit.left, centre.x + width / 2 + fit.right)
            : (centre.x - natural.x, centre.x + natural.x)
        let (y0, y1) = fit.height ? (centre.y - height / 2 - fit.top, centre.y + height / 2 + fit.bottom)
            : (centre.y - natural.y, centre.y + natural.y)
        let fitted = FittedIcon(icon.sprite, left: x0, top: y0, right: x1, bottom: y1, scale: icon.scale,
                                fitsWidth: fit.width, fitsHeight: fit.height)
        guard !fitted.columns.isEmpty, !fitted.rows.isEmpty else { return nil }
        let b = fitted.bounds, p = icon.padding
        var stretched = plain.icon
        stretched.fitted = fitted
        let rule = plain.boxes.first.map { ($0.overlap, $0.ignore) } ?? (.never, false)
        return IconChoice(boxes: [((b.x0 - p, b.y0 - p, b.x1 + p, b.y1 + p), rule.0, rule.1)], icon: stretched)
    }

    /// What of a symbol is kept: its text at the first of `texts` where it `fits` with its icon
    /// (fitted there, or `icon`), the text alone where the icon does not fit but is optional,
    /// the icon alone where no place of the text fits but the text is optional; nil where none
    /// of that can be. A symbol without text keeps its icon where it fits.
    static func pick(_ texts: [TextChoice], icon: IconChoice?, hasText: Bool, rules: SymbolLayerRules,
                     fits: (CollisionBoxes) -> Bool) -> (CollisionBoxes, MapLibreLabel.Text?, MapLibreLabel.PlacedIcon?)? {
        guard hasText else { return icon.flatMap { fits($0.boxes) ? ($0.boxes, nil, $0.icon) : nil } }
        for choice in texts where fits(choice.boxes) {
            guard let icon = choice.fittedIcon ?? icon else { return (choice.boxes, choice.text, nil) }
            if fits(icon.boxes) { return (choice.boxes + icon.boxes, choice.text, icon.icon) }
            if rules.iconOptional { return (choice.boxes, choice.text, nil) }
        }
        if rules.textOptional, let icon = texts.first?.fittedIcon ?? icon, fits(icon.boxes) {
            return (icon.boxes, nil, icon.icon)
        }
        return nil
    }
}
