import CCairo
import CLineCoverage
import Foundation
import MapLibreStyleSpec

/// Draws a `MapLibreScene` with Cairo in device pixels: each style layer in order, features
/// projected straight from tile units (or metres) to the output, never rasterised per tile.
///
/// Seams: each tile's polygons are clipped to the tile's own square and lines to a square a
/// little larger; features of one layer with the same paint are filled or stroked as one path,
/// so pieces of a polygon or line that meet at a tile edge are drawn as one shape (no double
/// coverage of translucent paint, no hairline gaps).
struct MapLibrePainter {
    let group: MapLibreGroup
    let scene: MapLibreScene
    let viewport: Viewport
    /// Images are drawn from through views of their own (see `RasterImage.privateView`): set
    /// while bands of rows are drawn on several threads at once (MapLibrePainter+Bands.swift).
    var drawsFromPrivateViews = false
    /// The features of each layer, placed once for the bands and labels of this map.
    let placedFeatures = MapLibrePlacedFeatures()

    typealias Point = SIMD2<Double>

    /// A rectangle in device pixels.
    struct Rect {
        var minX: Double, minY: Double, maxX: Double, maxY: Double

        func intersection(_ other: Rect) -> Rect? {
            let r = Rect(minX: max(minX, other.minX), minY: max(minY, other.minY),
                         maxX: min(maxX, other.maxX), maxY: min(maxY, other.maxY))
            return r.minX < r.maxX && r.minY < r.maxY ? r : nil
        }

        func expanded(by d: Double) -> Rect { Rect(minX: minX - d, minY: minY - d, maxX: maxX + d, maxY: maxY + d) }
    }

    /// A feature in device pixels with the square it belongs to (its tile, within the view).
    struct Placed {
        var feature: MapLibreFeature
        /// Where the feature's polygons are cut (its tile's square).
        var tile: Rect
        /// Device pixels per GL pixel in this tile's units, for nothing but a margin.
        var margin: Double
    }

    var glZoom: Double { MapLibreGroup.glZoom(viewport.zoom) }

    /// How much larger than its own size a fill or line pattern is drawn: MapLibre lays patterns
    /// out in the tiles of the whole (GL) zoom below the view's and scales those tiles up to
    /// the view, so a pattern grows by 2^fraction from one whole zoom to the next, then is
    /// drawn at its own size again.
    var patternGrowth: Double {
        let zoom = max(0, glZoom)
        return zoom.isFinite ? pow(2, zoom - zoom.rounded(.down)) : 1
    }

    /// The sprite's icons for the output scale (the `@2x` sheet at 1.5 and above, where there is one).
    var icons: [String: SpriteIcon] { group.sprite.icons(scale: viewport.scale) }

    /// The view with room for wide lines and circles, so far-off geometry stays within Cairo's range.
    var viewRect: Rect {
        Rect(minX: 0, minY: 0, maxX: Double(viewport.deviceWidth), maxY: Double(viewport.deviceHeight)).expanded(by: 1024)
    }

    func draw(on context: DrawingContext) {
        if drawInBands(on: context) { return }
        let labels = group.layers.contains { $0.kind == .symbol } ? placeLabels() : [:]
        draw(layers: group.layers.indices, labels: labels, on: context)
    }

    /// Draws the style layers at `layers`, the symbol layers among them with `labels` (placed
    /// by `placeLabels`, keyed by layer index).
    func draw(layers: Range<Int>, labels: [Int: [MapLibreLabel]], on context: DrawingContext) {
        let ctx = EvaluationContext(zoom: glZoom)
        ctx.availableImages = Set(icons.keys)
        for index in layers {
            let layer = group.layers[index]
            guard layer.isVisible(glZoom: glZoom) else { continue }
            ctx.properties = [:]
            ctx.id = .null
            ctx.geometryType = nil
            switch layer.kind {
            case .background:
                drawBackground(layer, ctx, context)
            case .raster:
                drawRaster(layer, ctx, context)
            case .fill:
                drawFills(layer, ctx, context)
            case .line:
                drawLines(layer, ctx, context)
            case .circle:
                drawCircles(layer, ctx, context)
            case .symbol:
                drawLabels(labels[index] ?? [], on: context)
            }
        }
    }

    private func set(_ color: PaintColor, _ context: DrawingContext) {
        cairo_set_source_rgba(context.cr, color.r, color.g, color.b, color.a)
    }

    // MARK: features

    /// Every feature of the layer's source (and source layer) that passes its filter, in device
    /// pixels, with `ctx` set to it when `body` runs (found once per map, see `MapLibrePlacedFeatures`).
    func forEachFeature(_ layer: MapLibreLayer, _ ctx: EvaluationContext, _ body: (Placed) -> Void) {
        let entries = placedFeatures.entries(for: layer) { placeFeatures(layer, ctx) }
        for entry in entries {
            ctx.properties = entry.properties
            ctx.id = entry.id
            ctx.geometryType = entry.geometryType
            body(entry.placed)
        }
    }

    /// The features of the layer's source (and source layer) that pass its filter, in device pixels.
    private func placeFeatures(_ layer: MapLibreLayer, _ ctx: EvaluationContext) -> [MapLibrePlacedFeatures.Entry] {
        var entries: [MapLibrePlacedFeatures.Entry] = []
        func add(_ placed: Placed) {
            entries.append(MapLibrePlacedFeatures.Entry(properties: ctx.properties, id: ctx.id,
                                                        geometryType: ctx.geometryType ?? "", placed: placed))
        }
        guard let sourceID = layer.source else { return entries }
        let res = viewport.resolution, extent = viewport.extent, o = WebMercator.originShift
        switch group.sources[sourceID] {
        case .features(let features)?:
            let world = 2 * o
            for shift in [-world, 0, world] where extent.minX < o + shift && extent.maxX > -o + shift {
                let k = 1 / res, ox = (shift - extent.minX) / res, oy = extent.maxY / res
                for feature in features {
                    ctx.properties = feature.properties
                    ctx.id = feature.id
                    ctx.geometryType = feature.type.rawValue
                    if let filter = layer.filter, !filter.matches(ctx) { continue }
                    let placed = transformed(feature, k: k, kx: 1, ox: ox, oy: oy)
                    add(Placed(feature: placed, tile: viewRect, margin: 1))
                }
            }
        case .tiles(_, _, true, _)?:
            guard let name = layer.sourceLayer else { return entries }
            for tile in scene.tiles[sourceID] ?? [] {
                guard case .vector(let vectorTile) = tile.content, let data = vectorTile.layer(name) else { continue }
                let span = 2 * o / Double(1 << tile.z)
                let ox = (-o + Double(tile.x) * span - extent.minX) / res
                let oy = (extent.maxY - (o - Double(tile.y) * span)) / res
                let side = span / res, k = side / Double(data.extent)
                let square = Rect(minX: ox, minY: oy, maxX: ox + side, maxY: oy + side)
                guard let clip = square.intersection(viewRect) else { continue }
                for feature in data.features {
                    guard let properties = try? data.properties(of: feature) else { continue }
                    var values: [String: Value] = [:]
                    for (key, value) in properties {
                        switch value {
                        case .string(let s): values[key] = .string(s)
                        case .bool(let b): values[key] = .bool(b)
                        default: values[key] = .number(value.number ?? 0)
                        }
                    }
                    let type: MapLibreFeature.GeometryType
                    switch feature.type {
                    case .point: type = .point
                    case .lineString: type = .line
                    case .polygon: type = .polygon
                    case .unknown: continue
                    }
                    ctx.properties = values
                    ctx.id = feature.id.map { .number(Double($0)) } ?? .null
                    ctx.geometryType = type.rawValue
                    if let filter = layer.filter, !filter.matches(ctx) { continue }
                    guard let geometry = try? data.geometry(of: feature) else { continue }
                    func p(_ q: VectorTileGeometry.Point) -> Point { Point(ox + Double(q.x) * k, oy + Double(q.y) * k) }
                    var placed = MapLibreFeature(properties: values, id: ctx.id, type: type)
                    placed.points = geometry.points.map(p)
                    placed.lines = geometry.lines.map { $0.map(p) }
                    placed.polygons = geometry.polygons.map { $0.map { $0.map(p) } }
                    // Square edges that are the view's, not the tile's, lie outside the view.
                    add(Placed(feature: placed, tile: clip, margin: side / 256))
                }
            }
        default:
            break
        }
        return entries
    }

    /// `feature` in metres (y up) moved into device pixels (y down).
    private func transformed(_ feature: MapLibreFeature, k: Double, kx: Double, ox: Double, oy: Double) -> MapLibreFeature {
        func p(_ q: Point) -> Point { Point(ox + q.x * k, oy - q.y * k) }
        var result = feature
        result.points = feature.points.map(p)
        result.lines = feature.lines.map { $0.map(p) }
        result.polygons = feature.polygons.map { $0.map { $0.map(p) } }
        return result
    }

    // MARK: fill

    private struct FillPaint: Hashable {
        /// With a `pattern`, black with the fill's opacity as its alpha.
        var color: PaintColor
        /// The sprite icon repeated over the shape in place of the colour.
        var pattern: String?
        var antialias: Bool
        var translate: Point
    }

    func translation(_ layer: MapLibreLayer, _ name: String, _ ctx: EvaluationContext) -> Point {
        let (x, y) = layer.pair(name, ctx)
        return Point(x, y) * viewport.scale
    }

    private func drawFills(_ layer: MapLibreLayer, _ ctx: EvaluationContext, _ context: DrawingContext) {
        var order: [FillPaint] = []
        var sortKeys: [FillPaint: Double] = [:]
        var rings: [FillPaint: [[Point]]] = [:]
        var outlines: [FillOutline] = []
        let hasOutline = layer.properties["fill-outline-color"] != nil
        let patterns = MapLibrePatternImage(layer, icons: icons)
        forEachFeature(layer, ctx) { placed in
            guard placed.feature.type == .polygon else { return }
            let opacity = layer.number("fill-opacity", ctx)
            guard let (color, pattern) = MapLibrePatternImage.paint(layer, ctx, pattern: patterns, color: "fill-color",
                                                                    opacity: opacity) else { return }
            let antialias = layer.value("fill-antialias", ctx).boolean ?? true
            let paint = FillPaint(color: color, pattern: pattern, antialias: antialias,
                                  translate: translation(layer, "fill-translate", ctx))
            if rings[paint] == nil {
                order.append(paint)
                sortKeys[paint] = layer.number("fill-sort-key", ctx)
            }
            let all = placed.feature.polygons.flatMap { $0 }
            rings[paint, default: []] += all.compactMap { Self.clip(ring: $0, to: placed.tile) }
            if hasOutline, antialias, let outline = layer.color("fill-outline-color", ctx, opacity: opacity), outline.a > 0 {
                outlines.append(FillOutline(color: outline, rings: all, clip: placed.tile, translate: paint.translate))
            }
        }
        let cr = context.cr
        for paint in order.enumerated().sorted(by: { (sortKeys[$0.element]!, $0.offset) < (sortKeys[$1.element]!, $1.offset) })
            .map(\.element) where paint.color.a > 0 {
            cairo_save(cr)
            cairo_new_path(cr)
            for ring in rings[paint] ?? [] { addPath(ring, closed: true, offset: paint.translate, cr) }
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
            cairo_set_antialias(cr, paint.antialias ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE)
            if let name = paint.pattern, let icon = icons[name] {
                do {
                    try fill(with: icon, alpha: paint.color.a, context)
                } catch {
                    context.pendingError = context.pendingError ?? error
                }
            } else {
                set(paint.color, context)
                cairo_fill(cr)
            }
            cairo_restore(cr)
        }
        if !outlines.isEmpty, drawOutlinesThroughCoverage(outlines, context) { return }
        for outline in outlines {
            cairo_save(cr)
            cairo_rectangle(cr, outline.clip.minX, outline.clip.minY, outline.clip.maxX - outline.clip.minX,
                            outline.clip.maxY - outline.clip.minY)
            cairo_clip(cr)
            cairo_new_path(cr)
            for ring in outline.rings { addPath(ring, closed: true, offset: outline.translate, cr) }
            cairo_set_line_width(cr, viewport.scale)
            set(outline.color, context)
            cairo_stroke(cr)
            cairo_restore(cr)
        }
    }

    /// `fill-outline-color`: the rings of one feature of one tile, outlined a CSS pixel wide within the tile.
    private struct FillOutline {
        var color: PaintColor
        var rings: [[Point]]
        var clip: Rect
        var translate: Point
    }

    /// Draws `outlines` through `LineCoverageMask`s (one per run of outlines of one colour and
    /// translation), as `drawThroughCoverage` draws lines: each ring cut at its tile's edges with
    /// open ends (the neighbouring tile's ring goes on from there), or closed where it lies
    /// within its tile. False where that does not apply (at `--scale` above 2, where Cairo's
    /// miter joins show, or a transformed context); nothing is drawn then.
    private func drawOutlinesThroughCoverage(_ outlines: [FillOutline], _ context: DrawingContext) -> Bool {
        let cr = context.cr
        guard viewport.scale <= 2, let visible = Self.deviceClip(cr) else { return false }
        let halfWidth = viewport.scale / 2
        var start = 0
        while start < outlines.count {
            var end = start + 1
            while end < outlines.count, outlines[end].color == outlines[start].color,
                  outlines[end].translate == outlines[start].translate { end += 1 }
            let run = outlines[start..<end]
            start = end
            var box = run.first!.clip
            for outline in run {
                box = Rect(minX: min(box.minX, outline.clip.minX), minY: min(box.minY, outline.clip.minY),
                           maxX: max(box.maxX, outline.clip.maxX), maxY: max(box.maxY, outline.clip.maxY))
            }
            let shift = run.first!.translate
            let reach = Rect(minX: box.minX + shift.x, minY: box.minY + shift.y, maxX: box.maxX + shift.x,
                             maxY: box.maxY + shift.y).expanded(by: halfWidth + 1.5)
            guard let area = reach.intersection(visible) else { continue }
            guard let mask = LineCoverageMask(minX: area.minX, minY: area.minY, maxX: area.maxX, maxY: area.maxY) else {
                return false
            }
            for outline in run {
                for ring in outline.rings where ring.count >= 2 {
                    for (part, ends) in Self.outlineParts(ring, within: outline.clip) {
                        mask.add(part.map { $0 + shift }, halfWidth: halfWidth, cap: MC_CAP_BUTT, ends: ends)
                    }
                }
            }
            set(run.first!.color, context)
            do {
                try mask.paint(on: cr)
            } catch {
                context.pendingError = context.pendingError ?? error
            }
        }
        return true
    }

    /// The parts of the closed `ring` inside `rect`: the whole ring, closed, where it lies within;
    /// else the pieces between where it crosses the rectangle's edges, whose ends are open.
    static func outlineParts(_ ring: [Point], within rect: Rect) -> [(points: [Point], ends: mc_line_ends)] {
        var points = ring
        if points.first != points.last { points.append(points[0]) }
        func inside(_ p: Point) -> Bool { p.x >= rect.minX && p.x <= rect.maxX && p.y >= rect.minY && p.y <= rect.maxY }
        guard let outside = points.firstIndex(where: { !inside($0) }) else {
            return [(points, MC_CLOSED)]
        }
        // Starting outside, every piece starts and ends on an edge.
        let rotated = Array(points[outside..<(points.count - 1)]) + Array(points[..<outside]) + [points[outside]]
        let open = mc_line_ends(rawValue: MC_START_OPEN.rawValue | MC_END_OPEN.rawValue)
        return clip(line: rotated, to: rect).map { ($0, open) }
    }

    /// The whole map in `background-color`, or covered with `background-pattern`'s image (as
    /// fill patterns are, anchored at the world's corner); nothing where the sprite lacks it.
    private func drawBackground(_ layer: MapLibreLayer, _ ctx: EvaluationContext, _ context: DrawingContext) {
        let opacity = layer.number("background-opacity", ctx)
        let patterns = MapLibrePatternImage(layer, icons: icons)
        guard let (color, pattern) = MapLibrePatternImage.paint(layer, ctx, pattern: patterns, color: "background-color",
                                                                opacity: opacity) else { return }
        guard let name = pattern else {
            set(color, context)
            cairo_paint(context.cr)
            return
        }
        guard let icon = icons[name], color.a > 0 else { return }
        let cr = context.cr
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        cairo_save(cr)
        cairo_new_path(cr)
        cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0)
        do {
            try fill(with: icon, alpha: color.a, context)
        } catch {
            context.pendingError = context.pendingError ?? error
        }
        cairo_restore(cr)
    }

    /// Fills the current path with `icon` repeated, `alpha` opaque, drawn at the output scale
    /// and anchored at the world's top-left corner (so the tiles' patterns line up).
    private func fill(with icon: SpriteIcon, alpha: Double, _ context: DrawingContext) throws(CairoError) {
        let scale = viewport.scale / icon.pixelRatio * patternGrowth
        let width = Double(icon.image.width) * scale, height = Double(icon.image.height) * scale
        // The world's corner in device pixels, moved by whole periods to near the view.
        let o = WebMercator.originShift, res = viewport.resolution
        var x = (-o - viewport.extent.minX) / res, y = (viewport.extent.maxY - o) / res
        x -= (x / width).rounded(.down) * width
        y -= (y / height).rounded(.down) * height
        let view = try icon.image.privateView()
        let pattern = try CairoSurfacePattern(view)
        try pattern.repeating(transform: cairo_matrix_t(xx: 1 / scale, yx: 0, xy: 0, yy: 1 / scale, x0: -x / scale, y0: -y / scale),
                              filter: DrawingContext.filter(x: x, y: y, scale: scale))
        let cr = context.cr
        cairo_clip(cr)
        cairo_set_source(cr, pattern.pointer)
        cairo_paint_with_alpha(cr, alpha)
    }

    private func addPath(_ points: [Point], closed: Bool, offset: Point, _ cr: OpaquePointer) {
        guard let first = points.first else { return }
        cairo_move_to(cr, first.x + offset.x, first.y + offset.y)
        for q in points.dropFirst() { cairo_line_to(cr, q.x + offset.x, q.y + offset.y) }
        if closed { cairo_close_path(cr) }
    }

    /// A closed ring cut to `rect` (Sutherland–Hodgman); nil when nothing is left.
    static func clip(ring: [Point], to rect: Rect) -> [Point]? {
        var points = ring
        if let first = points.first, let last = points.last, first == last { points.removeLast() }
        // Each edge: inside test and intersection with the boundary line.
        let edges: [(inside: (Point) -> Bool, cut: (Point, Point) -> Point)] = [
            ({ $0.x >= rect.minX }, { a, b in Point(rect.minX, a.y + (b.y - a.y) * (rect.minX - a.x) / (b.x - a.x)) }),
            ({ $0.x <= rect.maxX }, { a, b in Point(rect.maxX, a.y + (b.y - a.y) * (rect.maxX - a.x) / (b.x - a.x)) }),
            ({ $0.y >= rect.minY }, { a, b in Point(a.x + (b.x - a.x) * (rect.minY - a.y) / (b.y - a.y), rect.minY) }),
            ({ $0.y <= rect.maxY }, { a, b in Point(a.x + (b.x - a.x) * (rect.maxY - a.y) / (b.y - a.y), rect.maxY) }),
        ]
        for edge in edges {
            guard !points.isEmpty else { return nil }
            if points.allSatisfy(edge.inside) { continue }
            var output: [Point] = []
            output.reserveCapacity(points.count + 4)
            var previous = points[points.count - 1]
            var previousInside = edge.inside(previous)
            for current in points {
                let inside = edge.inside(current)
                if inside {
                    if !previousInside { output.append(edge.cut(previous, current)) }
                    output.append(current)
                } else if previousInside {
                    output.append(edge.cut(previous, current))
                }
                previous = current
                previousInside = inside
            }
            points = output
        }
        return points.count >= 3 ? points : nil
    }

    /// The parts of a polyline inside `rect` (each segment cut by `clip(segment:)`, joined where they meet).
    static func clip(line: [Point], to rect: Rect) -> [[Point]] {
        clipMeasured(line: line, to: rect).map(\.points)
    }

    /// `clip(line:to:)` with the distance along `line`, from its first point, at each point of each part.
    static func clipMeasured(line: [Point], to rect: Rect) -> [MeasuredLine] {
        var parts: [MeasuredLine] = []
        var current = MeasuredLine(points: [], distances: [])
        var travelled = 0.0
        for i in 1..<max(1, line.count) {
            let a = line[i - 1], b = line[i]
            let d = b - a
            let length = (d * d).sum().squareRoot()
            defer { travelled += length }
            guard let (t0, t1) = clip(segment: a, b, to: rect) else {
                if current.points.count >= 2 { parts.append(current) }
                current = MeasuredLine(points: [], distances: [])
                continue
            }
            let start = t0 > 0 ? a + d * t0 : a, end = t1 < 1 ? a + d * t1 : b
            if current.points.isEmpty || t0 > 0 {
                if current.points.count >= 2 { parts.append(current) }
                current = MeasuredLine(points: [start], distances: [travelled + length * t0])
            }
            current.points.append(end)
            current.distances.append(travelled + length * t1)
            if t1 < 1 {
                parts.append(current)
                current = MeasuredLine(points: [], distances: [])
            }
        }
        if current.points.count >= 2 { parts.append(current) }
        return parts
    }

    /// The part of the segment from `a` to `b` inside `rect`, as the fractions of the way along
    /// it where that part starts and ends (Liang–Barsky); nil when none is inside.
    static func clip(segment a: Point, _ b: Point, to rect: Rect) -> (t0: Double, t1: Double)? {
        var t0 = 0.0, t1 = 1.0
        let d = b - a
        for (p, q) in [(-d.x, a.x - rect.minX), (d.x, rect.maxX - a.x), (-d.y, a.y - rect.minY), (d.y, rect.maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 { if r > t1 { return nil }; t0 = max(t0, r) } else { if r < t0 { return nil }; t1 = min(t1, r) }
            }
        }
        return (t0, t1)
    }

    // MARK: line

    private struct LinePaint: Hashable {
        /// With a `pattern`, black with the line's opacity as its alpha.
        var color: PaintColor
        var width: Double
        var gap: Double
        var offset: Double
        var cap: String
        var join: String
        var miterLimit: Double
        var dashes: [Double]
        var translate: Point
        /// `line-blur` in device pixels.
        var blur: Double
        /// The sprite icon laid along the line in place of the colour.
        var pattern: String?
        /// Drawn with the layer's `line-gradient` in place of the colour (which is then black
        /// with the line's opacity as its alpha); the lines' `distances` are then their progress.
        var gradient = false

        /// Half the whole line's width: both sides and the gap, where it has one.
        var halfWidth: Double { gap > 0 ? gap / 2 + width : width / 2 }
    }

    private func drawLines(_ layer: MapLibreLayer, _ ctx: EvaluationContext, _ context: DrawingContext) {
        var order: [LinePaint] = []
        var sortKeys: [LinePaint: Double] = [:]
        var paths: [LinePaint: [MeasuredLine]] = [:]
        let scale = viewport.scale
        let patterns = MapLibrePatternImage(layer, icons: icons)
        // As in MapLibre, a pattern or dashes take the gradient's place.
        let gradient = layer.properties["line-dasharray"] == nil ? LineGradient(layer, ctx) : nil
        forEachFeature(layer, ctx) { placed in
            let feature = placed.feature
            let lines = feature.type == .polygon ? feature.polygons.flatMap { $0 } : feature.type == .line ? feature.lines : []
            guard !lines.isEmpty else { return }
            let opacity = layer.number("line-opacity", ctx)
            guard let painted = MapLibrePatternImage.paint(layer, ctx, pattern: patterns, color: "line-color",
                                                           opacity: opacity) else { return }
            var color = painted.color
            let pattern = painted.image
            let graded = gradient != nil && pattern == nil
            if graded { color = PaintColor(r: 0, g: 0, b: 0, a: max(0, min(1, opacity))) }
            let width = layer.number("line-width", ctx) * scale
            // As in MapLibre, a pattern is drawn without dashes.
            var paint = LinePaint(color: color, width: width, gap: layer.number("line-gap-width", ctx) * scale,
                                  offset: layer.number("line-offset", ctx) * scale,
                                  cap: layer.string("line-cap", ctx) ?? "butt", join: layer.string("line-join", ctx) ?? "miter",
                                  miterLimit: layer.number("line-miter-limit", ctx),
                                  dashes: pattern == nil ? layer.numbers("line-dasharray", ctx) : [],
                                  translate: translation(layer, "line-translate", ctx),
                                  blur: max(0, layer.number("line-blur", ctx)) * scale, pattern: pattern)
            paint.gradient = graded
            guard paint.width > 0, color.a > 0 else { return }
            if paths[paint] == nil {
                order.append(paint)
                sortKeys[paint] = layer.number("line-sort-key", ctx)
            }
            let rect = placed.tile.expanded(by: placed.margin)
            // Only the lines of a GeoJSON source with line metrics have a progress; MapLibre
            // reads 0 all along any other.
            let measured = graded && layer.lineMetrics && feature.type == .line
            for line in lines {
                var parts = Self.clipMeasured(line: line, to: rect)
                if graded { Self.setProgress(&parts, length: measured ? Self.length(of: line) : 0) }
                paths[paint, default: []] += parts
            }
        }
        let cr = context.cr
        for paint in order.enumerated().sorted(by: { (sortKeys[$0.element]!, $0.offset) < (sortKeys[$1.element]!, $1.offset) })
            .map(\.element) {
            let lines = paths[paint] ?? []
            let blur = LineBlur(width: paint.width, gap: paint.gap, blur: paint.blur)
            // The lines moved `side` pixels right of where the style puts them.
            func addPaths(side: Double) {
                let offset = paint.offset + side
                for line in lines {
                    addPath(offset == 0 ? line.points : Self.offset(line.points, by: offset), closed: false,
                            offset: paint.translate, cr)
                }
            }
            cairo_save(cr)
            cairo_set_line_width(cr, paint.width)
            cairo_set_line_cap(cr, paint.cap == "round" ? CAIRO_LINE_CAP_ROUND : paint.cap == "square" ? CAIRO_LINE_CAP_SQUARE
                               : CAIRO_LINE_CAP_BUTT)
            cairo_set_line_join(cr, paint.join == "round" ? CAIRO_LINE_JOIN_ROUND : paint.join == "bevel" ? CAIRO_LINE_JOIN_BEVEL
                                : CAIRO_LINE_JOIN_MITER)
            cairo_set_miter_limit(cr, max(1, paint.miterLimit))
            var dashes = paint.dashes.map { max(0, $0) * paint.width }
            // A pattern under half a pixel long would cost a dash per pixel and show as a solid line.
            if dashes.count >= 2, dashes.reduce(0, +) >= 0.5 {
                cairo_set_dash(cr, dashes, Int32(dashes.count), 0)
            } else {
                dashes = []
            }
            // In one colour, through a coverage mask where it can be (blurred too, without a
            // gap); else stroked by Cairo, or through `LineBlur`'s mask.
            let plain = paint.pattern == nil && !paint.gradient
            if plain { set(paint.color, context) }
            if plain, paint.blur == 0 || paint.gap == 0, drawThroughCoverage(paint, lines, dashes: dashes, context) {
                // Drawn.
            } else if plain, paint.blur == 0 {
                cairo_new_path(cr)
                for side in blur.sides { addPaths(side: side) }
                cairo_stroke(cr)
            } else {
                do {
                    try drawMasked(paint, lines, blur: blur, gradient: gradient, addPaths: addPaths, context)
                } catch {
                    context.pendingError = context.pendingError ?? error
                }
            }
            cairo_restore(cr)
        }
    }

    /// The extents of `cr`'s clip where it draws in device pixels (the identity transform), as
    /// coverage masks need; nil for a transformed context.
    private static func deviceClip(_ cr: OpaquePointer) -> Rect? {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        guard matrix.xx == 1, matrix.yy == 1, matrix.xy == 0, matrix.yx == 0, matrix.x0 == 0, matrix.y0 == 0 else {
            return nil
        }
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        return Rect(minX: x0, minY: y0, maxX: x1, maxY: y1)
    }

    /// Draws `lines` of `paint` (with `dashes`, device pixels; blurred by its `line-blur`) in the
    /// source set on the context through a `LineCoverageMask`, where that draws what Cairo's
    /// stroke would within a level or two: no gap, round joins (or lines up to 2 pixels wide,
    /// where a join's shape is under a pixel), up to 16 pixels wide, and device coordinates.
    /// False where it does not apply (nothing drawn).
    private func drawThroughCoverage(_ paint: LinePaint, _ lines: [MeasuredLine], dashes: [Double],
                                     _ context: DrawingContext) -> Bool {
        let cr = context.cr
        guard paint.gap == 0, paint.width <= 16, paint.join == "round" || paint.width <= 2 else { return false }
        guard let visible = Self.deviceClip(cr) else { return false }
        let moved = lines.map { line in
            (paint.offset == 0 ? line.points : Self.offset(line.points, by: paint.offset)).map { $0 + paint.translate }
        }
        let reach = paint.width / 2 + 1.5
        var box = Rect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for point in moved.joined() {
            box = Rect(minX: min(box.minX, point.x), minY: min(box.minY, point.y),
                       maxX: max(box.maxX, point.x), maxY: max(box.maxY, point.y))
        }
        guard let area = box.expanded(by: reach).intersection(visible) else {
            return true
        }
        guard let mask = LineCoverageMask(minX: area.minX, minY: area.minY, maxX: area.maxX, maxY: area.maxY) else {
            return false
        }
        let cap = paint.cap == "round" ? MC_CAP_ROUND : paint.cap == "square" ? MC_CAP_SQUARE : MC_CAP_BUTT
        for line in moved { mask.add(line, halfWidth: paint.width / 2, blur: paint.blur, cap: cap, dashes: dashes) }
        do {
            try mask.paint(on: cr)
        } catch {
            context.pendingError = context.pendingError ?? error
        }
        return true
    }

    /// A line with `line-blur`, `line-pattern` or `line-gradient`: its colour, or its pattern or
    /// gradient laid along `lines`,
    /// painted through its coverage (`LineBlur`), within a clip around the lines. The stroke's
    /// cap, join and dashes are set on the context.
    private func drawMasked(_ paint: LinePaint, _ lines: [MeasuredLine], blur: LineBlur, gradient: LineGradient?,
                            addPaths: (_ side: Double) -> Void, _ context: DrawingContext) throws(CairoError) {
        let cr = context.cr
        let miter = paint.join == "miter" ? max(1, paint.miterLimit) : 1
        // Groups only as large as the lines' reach, at most the clip.
        cairo_new_path(cr)
        for side in blur.sides { addPaths(side) }
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_path_extents(cr, &x0, &y0, &x1, &y1)
        let margin = (paint.width / 2 + paint.blur + 1) * miter + 1
        cairo_new_path(cr)
        cairo_rectangle(cr, x0 - margin, y0 - margin, x1 - x0 + 2 * margin, y1 - y0 + 2 * margin)
        cairo_clip(cr)
        let laidAlong = paint.pattern != nil || paint.gradient
        let mask = try blur.mask(on: cr, alpha: laidAlong ? paint.color.a : 1, addPath: addPaths)
        let centres = paint.offset == 0 || !laidAlong ? lines : lines.map {
            MeasuredLine(points: Self.offset($0.points, by: paint.offset), distances: $0.distances)
        }
        // A gap's sides meet at corners moved out along the bisector, up to 4 times their offset.
        let corners = paint.halfWidth * miter + (paint.gap > 0 ? 2 * (paint.gap + paint.width) : 0)
        // Regions reach no further than the coverage does, so they paint over little of other lines.
        let regions = LineSegmentRegions(across: paint.halfWidth + 1.5,
                                         capReach: paint.cap == "butt" ? 0.5 : paint.halfWidth + 0.5, cornerReach: corners)
        let source: CairoGroupPattern?
        if let name = paint.pattern, let icon = icons[name] {
            var pattern = LinePattern(icon: icon, scale: viewport.scale, halfWidth: paint.halfWidth, regions: regions)
            pattern.growth = patternGrowth
            source = try pattern.source(on: cr, lines: centres, offset: paint.translate)
        } else if paint.gradient, let gradient {
            source = try gradient.source(on: cr, lines: centres, offset: paint.translate, regions: regions)
        } else {
            source = nil
            set(paint.color, context)
        }
        if let source { cairo_set_source(cr, source.pointer) }
        cairo_mask(cr, mask.pointer)
    }

    /// The length of `line` in pixels.
    static func length(of line: [Point]) -> Double {
        zip(line, line.dropFirst()).reduce(0) { total, pair in
            let d = pair.1 - pair.0
            return total + (d * d).sum().squareRoot()
        }
    }

    /// Turns the distances of `parts` (cut from one line of `length` pixels) into the progress
    /// along it, 0…1; all 0 for a line of no length.
    static func setProgress(_ parts: inout [MeasuredLine], length: Double) {
        for i in parts.indices {
            parts[i].distances = parts[i].distances.map { length > 0 ? max(0, min(1, $0 / length)) : 0 }
        }
    }

    /// `line` moved `d` pixels to its right (MapLibre's positive `line-offset`), corners
    /// moved along the bisector.
    static func offset(_ line: [Point], by d: Double) -> [Point] {
        guard line.count >= 2 else { return line }
        func normal(_ a: Point, _ b: Point) -> Point {
            let v = b - a, length = (v.x * v.x + v.y * v.y).squareRoot()
            return length == 0 ? Point(0, 0) : Point(-v.y / length, v.x / length)
        }
        var result: [Point] = []
        result.reserveCapacity(line.count)
        for i in 0..<line.count {
            let before = i > 0 ? normal(line[i - 1], line[i]) : nil
            let after = i < line.count - 1 ? normal(line[i], line[i + 1]) : nil
            var n = (before ?? after!) + (after ?? before!)
            let length = (n.x * n.x + n.y * n.y).squareRoot()
            if length < 1e-9 {
                n = before ?? after!
            } else {
                n /= length
                let cosine = max(0.25, (n * (before ?? after!)).sum())
                n /= cosine
            }
            // Right of the direction of travel, y down.
            result.append(line[i] + n * d)
        }
        return result
    }

    // MARK: circle

    private func drawCircles(_ layer: MapLibreLayer, _ ctx: EvaluationContext, _ context: DrawingContext) {
        struct Circle {
            var center: Point, radius: Double, color: PaintColor?, strokeWidth: Double, stroke: PaintColor?, sortKey: Double
            var blur: Double
        }
        var circles: [Circle] = []
        let scale = viewport.scale
        forEachFeature(layer, ctx) { placed in
            guard placed.feature.type == .point else { return }
            let tile = placed.tile
            let opacity = layer.number("circle-opacity", ctx)
            let strokeOpacity = layer.number("circle-stroke-opacity", ctx)
            let radius = layer.number("circle-radius", ctx) * scale
            let strokeWidth = layer.number("circle-stroke-width", ctx) * scale
            let color = layer.color("circle-color", ctx, opacity: opacity)
            let stroke = layer.color("circle-stroke-color", ctx, opacity: strokeOpacity)
            let translate = translation(layer, "circle-translate", ctx)
            let sortKey = layer.number("circle-sort-key", ctx)
            let blur = max(0, layer.number("circle-blur", ctx))
            for point in placed.feature.points
            where point.x >= tile.minX && point.x < tile.maxX && point.y >= tile.minY && point.y < tile.maxY {
                circles.append(Circle(center: point + translate, radius: radius, color: color, strokeWidth: strokeWidth,
                                      stroke: stroke, sortKey: sortKey, blur: blur))
            }
        }
        let cr = context.cr
        for circle in circles.enumerated().sorted(by: { ($0.element.sortKey, $0.offset) < ($1.element.sortKey, $1.offset) })
            .map(\.element) {
            if circle.blur > 0 {
                BlurredCircle(center: circle.center, radius: max(0, circle.radius), strokeWidth: circle.strokeWidth,
                              color: circle.color, stroke: circle.stroke, blur: circle.blur).draw(on: cr)
                continue
            }
            if let color = circle.color, color.a > 0, circle.radius > 0 {
                cairo_new_path(cr)
                cairo_arc(cr, circle.center.x, circle.center.y, circle.radius, 0, 2 * .pi)
                set(color, context)
                cairo_fill(cr)
            }
            if let stroke = circle.stroke, stroke.a > 0, circle.strokeWidth > 0 {
                cairo_new_path(cr)
                cairo_arc(cr, circle.center.x, circle.center.y, circle.radius + circle.strokeWidth / 2, 0, 2 * .pi)
                cairo_set_line_width(cr, circle.strokeWidth)
                set(stroke, context)
                cairo_stroke(cr)
            }
        }
    }

    // MARK: raster

    private func drawRaster(_ layer: MapLibreLayer, _ ctx: EvaluationContext, _ context: DrawingContext) {
        guard let id = layer.source else { return }
        let opacity = max(0, min(1, layer.number("raster-opacity", ctx)))
        guard opacity > 0 else { return }
        // Colour adjustments apply to the resampled tiles: drawn into a group, adjusted there,
        // then painted with the layer's opacity.
        let adjustment = RasterColorAdjustment(layer, ctx)
        let tileAlpha = adjustment == nil ? opacity : 1
        if adjustment != nil { cairo_push_group(context.cr) }
        let res = viewport.resolution, extent = viewport.extent, o = WebMercator.originShift
        for tile in scene.tiles[id] ?? [] {
            guard case .raster(let image) = tile.content else { continue }
            let span = 2 * o / Double(1 << tile.z)
            let x = (-o + Double(tile.x) * span - extent.minX) / res
            let y = (extent.maxY - (o - Double(tile.y) * span)) / res
            let side = span / res
            context.save()
            context.rectangle(x, y, side, side)
            context.clip()
            if drawsFromPrivateViews {
                // Other bands draw from the same tile on other threads.
                guard let view = try? image.privateView() else { context.restore(); continue }
                context.draw(view, x: x, y: y, scale: side / Double(image.width), alpha: tileAlpha, padEdges: true)
            } else {
                context.draw(image, x: x, y: y, scale: side / Double(image.width), alpha: tileAlpha, padEdges: true)
            }
            context.restore()
        }
        guard let adjustment else { return }
        do {
            let group = try CairoGroupPattern(popping: context.cr)
            var surface: OpaquePointer?
            if cairo_pattern_get_surface(group.pointer, &surface) == CAIRO_STATUS_SUCCESS, let surface,
               cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_IMAGE {
                adjustment.apply(to: surface)
            }
            cairo_set_source(context.cr, group.pointer)
            cairo_paint_with_alpha(context.cr, opacity)
        } catch {
            context.pendingError = context.pendingError ?? error
        }
    }
}
