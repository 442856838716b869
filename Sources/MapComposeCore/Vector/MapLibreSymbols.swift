import CCairo
import Foundation
import MapLibreStyleSpec

/// Text labels of `symbol` layers, placed once for the whole map: layers from the top down,
/// features of a layer by `symbol-sort-key`, each label kept only where its box overlaps no
/// label kept before it (unless `text-allow-overlap`; `text-ignore-placement` keeps it from
/// blocking others). Labels are drawn in device pixels across the whole map, so none is cut at
/// a tile edge, and each point is labelled from the one tile that holds it; a label that would
/// run past the map's edge is left out. Along lines
/// (`symbol-placement: line`, `line-center`) text bends with the line (see `CurvedText`) and
/// each of its clusters has a box of its own.
struct MapLibreLabel {
    /// How a label's text is set.
    enum Text {
        /// Straight, the left end of its baseline at (x, y), turned by `angle` (radians,
        /// clockwise; `text-rotate`) about `pivot`, the symbol's anchor.
        case straight(TextLine, x: Double, y: Double, angle: Double, pivot: SIMD2<Double>)
        /// Cut into clusters set along a line.
        case curved(TextLine, clusters: [(cluster: TextCluster, transform: cairo_matrix_t)])
    }

    let text: Text?
    let color: RGBA
    let halo: RGBA?
    let haloWidth: Double
    /// Pixels over which the halo's edge fades (`text-halo-blur`).
    let haloBlur: Double
    /// The icon: its top-left corner relative to `pivot`, before it is turned by `angle`
    /// (radians, clockwise) about `pivot`; its scale and opacity.
    let icon: PlacedIcon?

    struct PlacedIcon {
        /// Stretched round its text (`icon-text-fit`): drawn so, not by the fields below.
        var fitted: FittedIcon?
        let image: RasterImage
        let pivot: SIMD2<Double>
        let x: Double, y: Double
        let angle: Double
        let scale: Double
        let alpha: Double
    }
}

/// Boxes of the labels kept so far, bucketed in a grid for the overlap test.
struct CollisionGrid {
    typealias Box = (x0: Double, y0: Double, x1: Double, y1: Double)

    /// How a symbol's box may meet the boxes kept before it (`text-overlap`, `icon-overlap`;
    /// where a layer does not set them, `never` or, with `*-allow-overlap`, `always`).
    enum Overlap {
        /// Kept only where it overlaps no box.
        case never
        /// Kept wherever it falls.
        case always
        /// Kept unless it overlaps the box of a symbol kept with `never`.
        case cooperative
    }

    /// Each box with whether it was kept with `never`.
    private var cells: [Int: [(box: Box, never: Bool)]] = [:]
    private let cell = 64.0

    private func keys(_ box: Box) -> [Int] {
        let c0 = Int(floor(box.x0 / cell)), c1 = Int(floor(box.x1 / cell))
        let r0 = Int(floor(box.y0 / cell)), r1 = Int(floor(box.y1 / cell))
        guard c1 - c0 < 256, r1 - r0 < 256 else { return [Int.max] }
        return (r0...r1).flatMap { r in (c0...c1).map { r &* 65_536 &+ $0 } }
    }

    /// True when `box` overlaps a kept box; `cooperative`, one kept with `never`.
    func overlaps(_ box: Box, cooperative: Bool = false) -> Bool {
        keys(box).contains { key in
            cells[key]?.contains { kept in
                (!cooperative || kept.never) && box.x0 < kept.box.x1 && kept.box.x0 < box.x1 && box.y0 < kept.box.y1
                    && kept.box.y0 < box.y1
            } ?? false
        }
    }

    /// Keeps `box` of a symbol kept with `overlap`.
    mutating func insert(_ box: Box, overlap: Overlap) {
        for key in keys(box) { cells[key, default: []].append((box, overlap == .never)) }
    }
}

extension MapLibrePainter {
    /// The labels each symbol layer draws (by index in the style's drawn layers).
    func placeLabels() -> [Int: [MapLibreLabel]] {
        var grid = CollisionGrid()
        var placed: [Int: [MapLibreLabel]] = [:]
        let coloredIcons = SDFIcon.Cache()
        let ctx = EvaluationContext(zoom: glZoom)
        ctx.availableImages = Set(icons.keys)
        let scale = viewport.scale
        let mapWidth = Double(viewport.deviceWidth), mapHeight = Double(viewport.deviceHeight)
        for (index, layer) in group.layers.enumerated().reversed() where layer.kind == .symbol && layer.isVisible(glZoom: glZoom) {
            var candidates: [SymbolCandidate] = []
            ctx.properties = [:]
            let placement = layer.string("symbol-placement", ctx) ?? "point"
            let spacing = max(1, layer.number("symbol-spacing", ctx) * scale)
            forEachFeature(layer, ctx) { feature in
                var anchors: [(point: Point, along: (path: LabelPath, distance: Double)?)] = []
                let tile = feature.tile
                if placement == "point" {
                    anchors = feature.feature.points.filter {
                        $0.x >= tile.minX && $0.x < tile.maxX && $0.y >= tile.minY && $0.y < tile.maxY
                    }.map { ($0, nil) }
                } else {
                    // Anchored on the line's parts in the tile; the text may run on past them.
                    let lines = feature.feature.type == .polygon ? feature.feature.polygons.flatMap { $0 } : feature.feature.lines
                    for path in lines.map(LabelPath.init) {
                        for range in path.ranges(inside: tile) {
                            for distance in Self.anchors(in: range, spacing: placement == "line-center" ? nil : spacing) {
                                anchors.append((path.position(at: distance).point, (path, distance)))
                            }
                        }
                    }
                }
                guard !anchors.isEmpty else { return }
                let text = labelText(layer, ctx, placement: placement)
                let icon = labelIcon(layer, ctx, placement: placement, coloredIcons: coloredIcons)
                guard text != nil || icon != nil else { return }
                let sortKey = layer.number("symbol-sort-key", ctx)
                for (point, along) in anchors {
                    candidates.append(SymbolCandidate(text: text, icon: icon, point: point, along: along, sortKey: sortKey))
                }
            }
            ctx.properties = [:]
            let rules = SymbolLayerRules(layer, ctx)
            var kept: [(label: MapLibreLabel, y: Double, index: Int)] = []
            for (dataIndex, candidate) in Self.placementOrder(candidates, rules.placementOrder) {
                // Text set at its point covers the point: a point inside a kept label is a
                // collision whatever the text, found without shaping it.
                if let text = candidate.text, rules.text.overlap == .never, candidate.along == nil, text.offset == .zero,
                   text.translate == .zero, text.variableAnchors == nil {
                    let p = candidate.point
                    if grid.overlaps((p.x, p.y, p.x, p.y)) { continue }
                }
                let icon = candidate.icon.map { iconChoice($0, for: candidate, rules: rules) }
                let texts = candidate.text.map { textChoices($0, for: candidate, icon: icon, rules: rules) } ?? []
                if candidate.text != nil, texts.isEmpty { continue }
                let fits = { (boxes: CollisionBoxes) in
                    boxes.allSatisfy { part in
                        Self.isOnMap(part.box, width: mapWidth, height: mapHeight)
                            && (part.overlap == .always || !grid.overlaps(part.box, cooperative: part.overlap == .cooperative))
                    }
                }
                guard let (boxes, text, placedIcon) = Self.pick(texts, icon: icon, hasText: candidate.text != nil, rules: rules,
                                                                fits: fits) else { continue }
                for box in boxes where !box.ignore { grid.insert(box.box, overlap: box.overlap) }
                let label = MapLibreLabel(text: text,
                                          color: candidate.text?.color ?? RGBA.transparent, halo: candidate.text?.halo,
                                          haloWidth: candidate.text?.haloWidth ?? 0, haloBlur: candidate.text?.haloBlur ?? 0,
                                          icon: placedIcon)
                kept.append((label, candidate.point.y, dataIndex))
            }
            if rules.drawsTopDown {
                // As MapLibre sorts them: by the anchor's row, the later feature first on a row.
                kept.sort { ($0.y.rounded(), -$0.index) < ($1.y.rounded(), -$1.index) }
            }
            placed[index] = kept.map(\.label)
        }
        return placed
    }

    /// `candidates` with their indices (the order of the data) in the order they are placed.
    static func placementOrder(_ candidates: [SymbolCandidate], _ order: SymbolLayerRules.PlacementOrder)
        -> [(offset: Int, element: SymbolCandidate)] {
        let indexed = Array(candidates.enumerated())
        switch order {
        case .data: return indexed
        case .sortKey: return indexed.sorted { ($0.element.sortKey, $0.offset) < ($1.element.sortKey, $1.offset) }
        case .bottomFirst:
            return indexed.sorted { (-$0.element.point.y.rounded(), $0.offset) < (-$1.element.point.y.rounded(), $1.offset) }
        }
    }

    /// A symbol's text and how it is set, before shaping.
    struct SymbolText {
        let text: String
        let font: TextFont
        /// Pixels a line may take before it breaks; nil for one line.
        let wrapWidth: Double?
        /// Pixels added between clusters.
        let letterSpacing: Double
        let anchor: String
        /// How the lines of a point label line up (`text-justify`).
        let justify: TextLine.Alignment
        let offset: Point
        /// The places `text-variable-anchor` lets a point label take, in the order tried.
        let variableAnchors: [Place]?
        /// How a point label's text may run (`text-writing-mode`), in the order tried: each
        /// mode at each of its places.
        let writingModes: [WritingMode]
        let padding: Double
        /// The height of each line of a point label's collision box: `text-line-height` in
        /// pixels, MapLibre's advance from one line to the next.
        let lineHeight: Double
        let color: RGBA
        let halo: RGBA?
        let haloWidth: Double
        let haloBlur: Double
        /// `text-translate`: pixels the text and its box are moved by.
        let translate: Point
        /// `text-rotate`, radians clockwise: a point label turned about its anchor (its box
        /// then the upright box round the turned one), each cluster of a label along a line
        /// about its own middle.
        let rotate: Double

        /// Where a point label may be set, in the order tried.
        var places: [Place] { variableAnchors ?? [Place(anchor: anchor, offset: offset, justify: justify)] }
    }

    /// Where a point label is set: the anchor its box hangs from, its offset from the feature's
    /// point in pixels and how its lines line up.
    struct Place {
        let anchor: String
        let offset: Point
        let justify: TextLine.Alignment
    }

    /// A symbol's icon from the sprite, at its drawn scale.
    struct SymbolIcon {
        let image: RasterImage
        let scale: Double
        let anchor: String
        let offset: Point
        let alpha: Double
        /// `icon-rotate`, radians clockwise.
        let rotate: Double
        /// Along lines, turned to the line (`icon-rotation-alignment` other than `viewport`).
        let followsLine: Bool
        /// Along lines, turned half round where the line runs right to left, so it is never upside
        /// down (`icon-keep-upright`).
        let keepUpright: Bool
        /// `icon-translate`: pixels the icon and its box are moved by.
        let translate: Point
        /// `icon-padding`: pixels added round its box.
        let padding: Double
        /// The sprite's icon, with its stretch zones and content box.
        let sprite: SpriteIcon
        /// `icon-text-fit` (nil for `none`): which sides follow the text, and how far past it
        /// (`icon-text-fit-padding`, device pixels).
        let fit: (width: Bool, height: Bool, top: Double, right: Double, bottom: Double, left: Double)?
    }

    struct SymbolCandidate {
        let text: SymbolText?
        let icon: SymbolIcon?
        let point: Point
        /// For labels along lines, the line and the anchor's distance along it.
        let along: (path: LabelPath, distance: Double)?
        let sortKey: Double
    }

    /// The most characters (Unicode scalars) a label may have; a longer one is not drawn.
    static let maxLabelCharacters = 4_000

    /// The anchors a box may hang from.
    static let anchorNames: Set<String> = ["center", "left", "right", "top", "bottom", "top-left", "top-right",
                                            "bottom-left", "bottom-right"]

    /// How far (in ems) MapLibre moves text set above or below its anchor back towards it: a
    /// box's edge is taken where its glyphs seem to start, at the baseline (7 of a 24-pixel em).
    static let baselineShift = 7.0 / 24

    /// The offset in ems of a label at variable anchor `anchor`, as MapLibre reckons it: `radial`
    /// ems away from the point in the anchor's direction (diagonally for corners) when
    /// `text-radial-offset` is set, else `text-offset`'s distances (without their signs) in that
    /// direction; above or below the point, less the baseline shift.
    static func variableOffset(_ anchor: String, radial: Double?, offset: (x: Double, y: Double)) -> Point {
        let diagonal = anchor.contains("-")
        let across: Double, down: Double
        if let radial {
            let r = max(0, radial), side = diagonal ? r / 2.squareRoot() : r
            (across, down) = (side, side)
        } else {
            (across, down) = (abs(offset.x), abs(offset.y))
        }
        let x = anchor.hasSuffix("left") ? across : anchor.hasSuffix("right") ? -across : 0
        let y = anchor.hasPrefix("top") ? down - baselineShift : anchor.hasPrefix("bottom") ? -down + baselineShift : 0
        return Point(x, y)
    }

    /// The anchors and offsets (ems) of a `text-variable-anchor-offset` value, in order: an anchor
    /// name then its `[x, y]`, repeated; pairs that are not so are left out. nil when there are none.
    static func anchorOffsets(_ value: Value) -> [(name: String, offset: (x: Double, y: Double))]? {
        guard case .array(let items) = value else { return nil }
        var pairs: [(name: String, offset: (x: Double, y: Double))] = []
        var index = 0
        while index + 1 < items.count {
            defer { index += 2 }
            guard case .string(let name) = items[index], anchorNames.contains(name) else { continue }
            let numbers: [Double]
            switch items[index + 1] {
            case .array(let values): numbers = values.compactMap(\.number)
            case .numberArray(let values): numbers = values
            default: continue
            }
            guard numbers.count == 2, numbers.allSatisfy(\.isFinite) else { continue }
            pairs.append((name, (numbers[0], numbers[1])))
        }
        return pairs.isEmpty ? nil : pairs
    }

    /// The feature's text in `ctx`, nil when there is none to draw.
    private func labelText(_ layer: MapLibreLayer, _ ctx: EvaluationContext, placement: String) -> SymbolText? {
        guard layer.properties["text-field"] != nil else { return nil }
        var text: String
        switch layer.value("text-field", ctx) {
        case .formatted(let formatted): text = formatted.text
        case .string(let string): text = string
        case let other where !other.isNull: text = other.stringValue
        default: return nil
        }
        text = Self.trimmedLines(text)
        switch layer.string("text-transform", ctx) {
        case "uppercase": text = text.uppercased()
        case "lowercase": text = text.lowercased()
        default: break
        }
        // Cut as a TextLine cuts what it shapes, so offsets into it are offsets into the line.
        text = StreamSafeText.limited(text)
        // Wrapping a paragraph takes time growing faster than its length, and a label of
        // thousands of characters covers more than any map: it is left out, as one that does not fit.
        guard text.utf8.count <= Self.maxLabelCharacters || text.unicodeScalars.count <= Self.maxLabelCharacters else { return nil }
        let scale = viewport.scale
        let size = min(layer.number("text-size", ctx), 1000) * scale
        // Point labels break at line breaks and past text-max-width (in ems); line labels are one line.
        var wrapWidth: Double?
        if placement == "point" {
            wrapWidth = max(0, layer.number("text-max-width", ctx)) * size
        } else {
            text = text.replacingOccurrences(of: "\n", with: " ")
        }
        let opacity = layer.number("text-opacity", ctx)
        guard !text.isEmpty, size > 0, let color = layer.color("text-color", ctx, opacity: opacity), color.a > 0 else { return nil }
        let haloWidth = layer.number("text-halo-width", ctx) * scale
        let halo = layer.color("text-halo-color", ctx, opacity: opacity).flatMap { $0.a > 0 && haloWidth > 0 ? $0 : nil }
        let (dx, dy) = layer.pair("text-offset", ctx)
        let anchor = placement == "point" ? layer.string("text-anchor", ctx) ?? "center" : "center"
        let justify = layer.string("text-justify", ctx)
        // Variable anchors replace text-anchor, and with text-radial-offset, text-offset; anchors
        // with their own offsets (text-variable-anchor-offset) replace both.
        var variableAnchors: [Place]?
        if placement == "point", let pairs = Self.anchorOffsets(layer.properties["text-variable-anchor-offset"] == nil ? .null
                                                                    : layer.value("text-variable-anchor-offset", ctx)) {
            variableAnchors = pairs.map { name, offset in
                let shift = name.hasPrefix("top") ? -Self.baselineShift : name.hasPrefix("bottom") ? Self.baselineShift : 0
                return Place(anchor: name, offset: Point(offset.x, offset.y + shift) * size,
                             justify: Self.justification(justify, anchor: name))
            }
        } else if placement == "point", let names = layer.strings("text-variable-anchor", ctx)?.filter(Self.anchorNames.contains),
           !names.isEmpty {
            let radial = layer.properties["text-radial-offset"] != nil ? layer.number("text-radial-offset", ctx) : nil
            variableAnchors = names.map { name in
                Place(anchor: name, offset: Self.variableOffset(name, radial: radial, offset: (dx, dy)) * size,
                      justify: Self.justification(justify, anchor: name))
            }
        }
        return SymbolText(text: text, font: Self.font(layer.value("text-font", ctx), size: size), wrapWidth: wrapWidth,
                          letterSpacing: Self.allowsLetterSpacing(text) ? layer.number("text-letter-spacing", ctx) * size : 0,
                          anchor: anchor, justify: Self.justification(justify, anchor: anchor),
                          offset: Point(dx, dy) * size, variableAnchors: variableAnchors,
                          writingModes: placement == "point"
                              ? WritingMode.modes(layer.strings("text-writing-mode", ctx) ?? [], for: text) : [.horizontal],
                          padding: layer.number("text-padding", ctx) * scale,
                          lineHeight: max(0, layer.number("text-line-height", ctx)) * size,
                          color: color.rgba, halo: halo?.rgba, haloWidth: haloWidth,
                          haloBlur: max(0, layer.number("text-halo-blur", ctx)) * scale,
                          translate: translation(layer, "text-translate", ctx),
                          rotate: Self.radians(layer.number("text-rotate", ctx)))
    }

    /// True when `box` lies within a map of `width` × `height` device pixels: a label that would
    /// run past the map's edge is left out rather than cut.
    static func isOnMap(_ box: CollisionGrid.Box, width: Double, height: Double) -> Bool {
        box.x0 >= 0 && box.y0 >= 0 && box.x1 <= width && box.y1 <= height
    }

    /// `text` with the white space around each line and around the whole removed, as MapLibre
    /// lays labels out: "Paris\n" (a name over an absent second name) is one line, not two.
    static func trimmedLines(_ text: String) -> String {
        String(text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingSpaces }
            .joined(separator: "\n")
            .trimmingWhiteSpace)
    }

    /// The feature's icon in `ctx`, nil when there is none or the sprite lacks it.
    private func labelIcon(_ layer: MapLibreLayer, _ ctx: EvaluationContext, placement: String,
                           coloredIcons: SDFIcon.Cache) -> SymbolIcon? {
        guard layer.properties["icon-image"] != nil else { return nil }
        guard let name = layer.imageName("icon-image", ctx) else { return nil }
        let size = min(layer.number("icon-size", ctx), 100)
        let alpha = max(0, min(1, layer.number("icon-opacity", ctx)))
        guard var icon = icons[name], size > 0, alpha > 0 else { return nil }
        if icon.sdf {
            let paint = SDFIcon.Paint(color: layer.color("icon-color", ctx) ?? PaintColor(r: 0, g: 0, b: 0, a: 1),
                                      halo: layer.color("icon-halo-color", ctx),
                                      haloWidth: max(0, layer.number("icon-halo-width", ctx)),
                                      haloBlur: max(0, layer.number("icon-halo-blur", ctx)), size: size,
                                      pixelRatio: viewport.scale)
            guard let colored = coloredIcons.colored(name, icon, paint) else { return nil }
            icon = colored
        }
        let scale = size * viewport.scale / icon.pixelRatio
        let (dx, dy) = layer.pair("icon-offset", ctx)
        let rotate = layer.number("icon-rotate", ctx)
        return SymbolIcon(image: icon.image, scale: scale, anchor: layer.string("icon-anchor", ctx) ?? "center",
                          offset: Point(dx, dy) * size * viewport.scale, alpha: alpha,
                          rotate: rotate.isFinite ? rotate * .pi / 180 : 0,
                          followsLine: placement != "point" && layer.string("icon-rotation-alignment", ctx) != "viewport",
                          keepUpright: layer.value("icon-keep-upright", ctx).boolean ?? false,
                          translate: translation(layer, "icon-translate", ctx),
                          padding: max(0, layer.number("icon-padding", ctx)) * viewport.scale, sprite: icon,
                          fit: textFit(layer, ctx))
    }

    /// `icon-text-fit` and its padding in device pixels; nil for `none`.
    private func textFit(_ layer: MapLibreLayer, _ ctx: EvaluationContext)
        -> (width: Bool, height: Bool, top: Double, right: Double, bottom: Double, left: Double)? {
        let fit = layer.string("icon-text-fit", ctx) ?? "none"
        guard fit != "none" else { return nil }
        let padding = layer.numbers("icon-text-fit-padding", ctx).map { max(-1000, min(1000, $0)) * viewport.scale }
        let (top, right, bottom, left) = padding.count == 4 ? (padding[0], padding[1], padding[2], padding[3]) : (0, 0, 0, 0)
        return (fit == "width" || fit == "both", fit == "height" || fit == "both", top, right, bottom, left)
    }

    /// Whether `text-letter-spacing` applies to `text`: not where letters join one another
    /// (Arabic, as in MapLibre, and Syriac, N'Ko, Mandaic and Mongolian; Devanagari, Bengali
    /// and Gurmukhi, whose letters hang from one headstroke), which spacing would break apart.
    static func allowsLetterSpacing(_ text: String) -> Bool {
        let joining: [ClosedRange<UInt32>] = [0x0600...0x077F, 0x07C0...0x07FF, 0x0840...0x08FF, 0x0900...0x0A7F,
                                              0x1800...0x18AF, 0xFB50...0xFDFF, 0xFE70...0xFEFF]
        return !text.unicodeScalars.contains { scalar in joining.contains { $0.contains(scalar.value) } }
    }

    /// How the lines of a label line up for `text-justify` `value`: `auto` follows the anchor
    /// (a label left of its anchor is right-justified, and so on), as in MapLibre.
    static func justification(_ value: String?, anchor: String) -> TextLine.Alignment {
        switch value {
        case "left": return .left
        case "right": return .right
        case "auto": return anchor.hasSuffix("left") ? .left : anchor.hasSuffix("right") ? .right : .center
        default: return .center
        }
    }

    /// Where a box's top-left corner lies from its anchor point.
    static func corner(_ anchor: String, width: Double, height: Double) -> (left: Double, top: Double) {
        (anchor.hasSuffix("left") ? 0 : anchor.hasSuffix("right") ? -width : -width / 2,
         anchor.hasPrefix("top") ? 0 : anchor.hasPrefix("bottom") ? -height : -height / 2)
    }

    /// The upright box around a `width` × `height` rectangle centred on `middle`, turned by
    /// `angle` about its centre, padded.
    static func box(around middle: Point, width: Double, height: Double, angle: Double, pad: Double) -> CollisionGrid.Box {
        let c = abs(cos(angle)), s = abs(sin(angle))
        let halfWidth = c * (width / 2 + pad) + s * (height / 2 + pad)
        let halfHeight = s * (width / 2 + pad) + c * (height / 2 + pad)
        return (middle.x - halfWidth, middle.y - halfHeight, middle.x + halfWidth, middle.y + halfHeight)
    }

    func drawLabels(_ labels: [MapLibreLabel], on context: DrawingContext) {
        for label in labels {
            if let icon = label.icon, let fitted = icon.fitted {
                fitted.draw(on: context.cr, alpha: icon.alpha)
            } else if let icon = label.icon {
                if icon.angle == 0 {
                    context.draw(icon.image, x: icon.pivot.x + icon.x, y: icon.pivot.y + icon.y, scale: icon.scale,
                                 alpha: icon.alpha, padEdges: false)
                } else {
                    // Turned, its pixels never land on device pixels: always filtered.
                    let cr = context.cr
                    context.save()
                    cairo_translate(cr, icon.pivot.x, icon.pivot.y)
                    cairo_rotate(cr, icon.angle)
                    cairo_translate(cr, icon.x, icon.y)
                    cairo_scale(cr, icon.scale, icon.scale)
                    cairo_set_source_surface(cr, icon.image.surface, 0, 0)
                    cairo_pattern_set_filter(cairo_get_source(cr), icon.scale >= 0.5 ? CAIRO_FILTER_BILINEAR : CAIRO_FILTER_GOOD)
                    cairo_paint_with_alpha(cr, icon.alpha)
                    context.restore()
                }
            }
            guard let text = label.text else { continue }
            context.save()
            switch text {
            case let .straight(line, x, y, angle, pivot):
                if angle != 0 {
                    cairo_translate(context.cr, pivot.x, pivot.y)
                    cairo_rotate(context.cr, angle)
                    cairo_translate(context.cr, -pivot.x, -pivot.y)
                }
                context.draw(line, x: x, y: y, color: label.color, halo: label.halo, haloWidth: 2 * label.haloWidth,
                             haloBlur: label.haloBlur)
            case let .curved(line, clusters):
                context.draw(line, clusters: clusters, color: label.color, halo: label.halo, haloWidth: 2 * label.haloWidth,
                             haloBlur: label.haloBlur)
            }
            context.restore()
        }
    }

    /// Where labels go along a stretch of line, as distances along it: every `spacing` pixels
    /// from half a spacing in, or only at its middle when `spacing` is nil (and for stretches
    /// shorter than one spacing).
    static func anchors(in range: ClosedRange<Double>, spacing: Double?) -> [Double] {
        let length = range.upperBound - range.lowerBound
        guard length > 0 else { return [] }
        guard let spacing, length >= spacing else { return [range.lowerBound + length / 2] }
        return stride(from: spacing / 2, to: length, by: spacing).prefix(1000).map { range.lowerBound + $0 }
    }

    /// The text engine's font for a MapLibre font stack: each name without its style words
    /// (`Noto Sans Regular` → `Noto Sans`), bold when the first name says so, Noto Sans after
    /// them for anything they lack.
    static func font(_ stack: Value, size: Double) -> TextFont {
        let names: [String]
        switch stack {
        case .array(let items): names = items.compactMap(\.string)
        case .string(let name): names = [name]
        default: names = []
        }
        let styles: Set<String> = ["Regular", "Bold", "Italic", "Medium", "Semibold", "SemiBold", "Light", "Black",
                                   "Heavy", "Condensed", "Oblique", "Book", "Thin", "ExtraBold", "Extra", "Ultra"]
        var families: [String] = []
        for name in names {
            var words = name.split(separator: " ").map(String.init)
            while words.count > 1, let last = words.last, styles.contains(last) { words.removeLast() }
            let family = words.joined(separator: " ")
            if !family.isEmpty, !families.contains(family) { families.append(family) }
        }
        if !families.contains(TextFont.defaultFamily) { families.append(TextFont.defaultFamily) }
        let bold = names.first.map { $0.contains("Bold") || $0.contains("Black") || $0.contains("Heavy") } ?? false
        return TextFont(family: families.joined(separator: ","), size: size, bold: bold)
    }
}

extension PaintColor {
    /// 8-bit, unpremultiplied.
    var rgba: RGBA {
        func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }
        return RGBA(r: byte(r), g: byte(g), b: byte(b), a: byte(a))
    }
}

extension MapLibrePainter {
    /// `degrees` (clockwise) in radians, within one turn.
    static func radians(_ degrees: Double) -> Double {
        degrees.truncatingRemainder(dividingBy: 360) * .pi / 180
    }

    /// `vector` turned by `angle` radians clockwise (device pixels, y down).
    static func turned(_ vector: Point, by angle: Double) -> Point {
        Point(vector.x * cos(angle) - vector.y * sin(angle), vector.x * sin(angle) + vector.y * cos(angle))
    }
}
