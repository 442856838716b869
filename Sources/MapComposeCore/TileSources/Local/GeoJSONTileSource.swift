import Foundation

/// Draws GeoJSON features into tiles with Cairo.
///
/// Each tile draws every feature that reaches into it (with a margin for strokes and markers),
/// in every copy of the world the tile touches, so shapes continue across tile edges and the
/// antimeridian without seams. Point labels that would overlap at a level are left out (see
/// `LabelPlacement`); a placed label is drawn by every tile its box reaches, whole. For a
/// render (`forViewport`), a label that would reach past the map's edge is left out, never cut.
public final class GeoJSONTileSource: TileSource {
    public let info: TileSourceInfo
    let features: [ProjectedFeature]
    let symbolizer: FeatureSymbolizer
    let name: String
    let labels: LabelPlacement
    /// The map a render draws, in zoom-0 world pixels (x not wrapped): labels are drawn only
    /// where they lie wholly inside it. Nil draws every placed label.
    let labelArea: (minX: Double, minY: Double, maxX: Double, maxY: Double)?

    public init(spec: GeoJSONSourceSpec) throws(GeoJSONError) {
        if let stored = spec.prepared.flatMap({ PreparedGeoJSON.features($0, labelProperty: spec.symbolizer.labelProperty) }) {
            features = stored
        } else {
            features = try GeoJSONFeatures.parse(spec.data, labelProperty: spec.symbolizer.labelProperty)
        }
        symbolizer = spec.symbolizer
        name = spec.path
        let symbolizerNumber = SymbolizerNumbers.number(for: spec.symbolizer)
        let content = spec.fixedContentName ?? ContentDigest.hex(of: spec.data)
        info = TileSourceInfo(identity: "geojson:\(content):symbolizer-\(symbolizerNumber)",
                              nativeZoom: TileMatrix.webMercator().levelRange, drawsAtAnyPixelRatio: true)
        labels = LabelPlacement(features: features, symbolizer: symbolizer)
        labelArea = nil
    }

    private init(_ source: GeoJSONTileSource, labelArea: (minX: Double, minY: Double, maxX: Double, maxY: Double)) {
        features = source.features
        symbolizer = source.symbolizer
        name = source.name
        labels = source.labels
        self.labelArea = labelArea
        let area = [labelArea.minX, labelArea.minY, labelArea.maxX, labelArea.maxY].map { "\($0)" }
        info = TileSourceInfo(identity: source.info.identity + "@labels-within:" + area.joined(separator: ","),
                              nativeZoom: source.info.nativeZoom, drawsAtAnyPixelRatio: true)
    }

    /// For a render of `viewport`: the same features, with labels only where they fit in the map
    /// (its tiles are kept apart from other views' by their identity).
    public func forViewport(_ viewport: Viewport) -> any TileSource {
        guard symbolizer.labelProperty != nil else { return self }
        let extent = viewport.extent
        let topLeft = WebMercator.worldPixel(fromMetersX: extent.minX, y: extent.maxY, zoom: 0)
        let bottomRight = WebMercator.worldPixel(fromMetersX: extent.maxX, y: extent.minY, zoom: 0)
        return GeoJSONTileSource(self, labelArea: (topLeft.x, topLeft.y, bottomRight.x, bottomRight.y))
    }

    public func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        let outcome = GeneratedTile.draw(on: info.matrix, pixelRatio: pixelRatio) { draw(coord, into: $0) }
        return TileFetch(outcome, origin: "\(name)@\(coord)")
    }

    /// Zoom-0 world pixels to this tile's pixels: `tile = (world − offset) · scale`.
    private struct TileTransform {
        let scale: Double
        let offsetX: Double, offsetY: Double

        func callAsFunction(_ p: WorldPixel) -> (Double, Double) {
            ((p.x - offsetX) * scale, (p.y - offsetY) * scale)
        }
    }

    private func draw(_ coord: TileCoord, into context: DrawingContext) {
        let matrix = info.matrix
        let extent = matrix.tileExtent(level: coord.z, column: coord.x, row: coord.y)
        let topLeft = WebMercator.worldPixel(fromMetersX: extent.minX, y: extent.maxY, zoom: 0)
        let bottomRight = WebMercator.worldPixel(fromMetersX: extent.maxX, y: extent.minY, zoom: 0)
        let scale = Double(matrix.tileWidth) / (bottomRight.x - topLeft.x)
        let world = WebMercator.zoom0WorldSize
        let margin = (symbolizer.width + symbolizer.radius + 2) / scale
        // The copies of the world this tile (with its margin) reaches: -1 west, 0, +1 east.
        let shifts = [-1.0, 0, 1].filter { k in
            topLeft.x - margin < (k + 1) * world && bottomRight.x + margin > k * world
        }
        for k in shifts {
            let transform = TileTransform(scale: scale, offsetX: topLeft.x - k * world, offsetY: topLeft.y)
            let minX = topLeft.x - k * world - margin, maxX = bottomRight.x - k * world + margin
            let minY = topLeft.y - margin, maxY = bottomRight.y + margin
            for feature in features
            where feature.maxX >= minX && feature.minX <= maxX && feature.maxY >= minY && feature.minY <= maxY {
                drawShapes(of: feature, context, transform)
            }
        }
        guard symbolizer.labelProperty != nil else { return }
        let font = TextFont(size: symbolizer.labelSize)
        let tileBox = LabelPlacement.Box(x0: 0, y0: 0, x1: Double(matrix.tileWidth), y1: Double(matrix.tileHeight))
        let placed = labels.placed(atScale: scale)
        for k in shifts {
            let transform = TileTransform(scale: scale, offsetX: topLeft.x - k * world, offsetY: topLeft.y)
            for label in placed {
                let (x, y) = transform(label.anchor)
                let box = labels.inkBox(of: label, atTileX: x, y: y)
                guard box.overlaps(tileBox), fitsLabelArea(box, transform) else { continue }
                context.text(features[label.feature].label!, font: font, color: symbolizer.labelColor,
                             halo: symbolizer.labelHalo) { _ in (x + labels.textOffset, y + labels.baselineOffset) }
            }
        }
    }

    /// True when `box` (tile pixels) lies wholly inside the label area, in any copy of the world.
    private func fitsLabelArea(_ box: LabelPlacement.Box, _ transform: TileTransform) -> Bool {
        guard let area = labelArea else { return true }
        let world = WebMercator.zoom0WorldSize
        return [-world, 0, world].contains { shift in
            let (x0, y0) = transform(WorldPixel(x: area.minX + shift, y: area.minY))
            let (x1, y1) = transform(WorldPixel(x: area.maxX + shift, y: area.maxY))
            return box.x0 >= x0 && box.y0 >= y0 && box.x1 <= x1 && box.y1 <= y1
        }
    }

    private func drawShapes(of feature: ProjectedFeature, _ context: DrawingContext, _ px: TileTransform) {
        for polygon in feature.polygons {
            if let fill = symbolizer.fill {
                for ring in polygon { trace(ring, closed: true, context, px) }
                context.fill(fill)
            }
            if let stroke = symbolizer.stroke {
                for ring in polygon { traceOutline(ring, context, px) }
                context.stroke(stroke, width: symbolizer.width)
            }
            context.newPath()
        }
        if let stroke = symbolizer.stroke, !feature.lines.isEmpty {
            for line in feature.lines { trace(line, closed: false, context, px) }
            context.stroke(stroke, width: symbolizer.width)
        }
        for point in feature.points {
            let (x, y) = px(point)
            context.circle(x, y, radius: symbolizer.radius)
            if let fill = symbolizer.fill { context.fill(fill, preserve: symbolizer.stroke != nil) }
            if let stroke = symbolizer.stroke { context.stroke(stroke, width: max(0.5, symbolizer.width / 2)) }
            context.newPath()
        }
    }

    private func trace(_ ring: [WorldPixel], closed: Bool, _ context: DrawingContext, _ px: TileTransform) {
        guard let first = ring.first else { return }
        let start = px(first)
        context.moveTo(start.0, start.1)
        for p in ring.dropFirst() {
            let q = px(p)
            context.lineTo(q.0, q.1)
        }
        if closed { context.closePath() }
    }

    /// Traces a polygon ring for stroking, leaving out edges that run along the world's border:
    /// the ±180° cuts of polygons split at the antimeridian and the latitude clamp of polygons
    /// reaching the poles are not real borders.
    private func traceOutline(_ ring: [WorldPixel], _ context: DrawingContext, _ px: TileTransform) {
        guard let first = ring.first else { return }
        let closed = ring.last == first ? ring : ring + [first]
        let start = px(first)
        context.moveTo(start.0, start.1)
        for (a, b) in zip(closed, closed.dropFirst()) {
            let q = px(b)
            if Self.alongWorldEdge(a, b) {
                context.moveTo(q.0, q.1)
            } else {
                context.lineTo(q.0, q.1)
            }
        }
    }

    /// True when both ends of a segment lie on the same edge of the zoom-0 world square.
    static func alongWorldEdge(_ a: WorldPixel, _ b: WorldPixel) -> Bool {
        let e = 1e-7, world = WebMercator.zoom0WorldSize
        func near(_ v: Double, _ edge: Double) -> Bool { abs(v - edge) < e }
        return (near(a.x, 0) && near(b.x, 0)) || (near(a.x, world) && near(b.x, world))
            || (near(a.y, 0) && near(b.y, 0)) || (near(a.y, world) && near(b.y, world))
    }
}
