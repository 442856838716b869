import Foundation

/// Draws GeoJSON features into 256-px tiles with Cairo.
///
/// Each tile draws every feature that reaches into it (with a margin for strokes, markers and
/// labels), so shapes and labels continue across tile edges without seams. Point labels that
/// would overlap at a level are left out (see `LabelPlacement`).
public final class GeoJSONTileSource: TileSource {
    public let info = TileSourceInfo(nativeZoom: 0...24, drawsAtAnyPixelRatio: true)
    let features: [ProjectedFeature]
    let symbolizer: FeatureSymbolizer
    let name: String
    let labels: LabelPlacement

    public init(spec: GeoJSONSourceSpec) throws(GeoJSONError) {
        features = try GeoJSONFeatures.parse(spec.data, labelProperty: spec.symbolizer.labelProperty)
        symbolizer = spec.symbolizer
        name = spec.path
        labels = LabelPlacement(features: features, symbolizer: symbolizer)
    }

    /// Number of features with drawable geometry.
    public var featureCount: Int { features.count }

    public func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        TileFetch(GeneratedTile.draw(pixelRatio: pixelRatio) { draw(coord, into: $0) }, origin: "\(name)@\(coord)")
    }

    private func draw(_ coord: TileCoord, into context: DrawingContext) {
        let scale = exp2(Double(coord.z))
        let ox = Double(coord.x) * 256, oy = Double(coord.y) * 256
        let margin = (symbolizer.width + symbolizer.radius + 2) / scale
        let tileMin = (x: ox / scale, y: oy / scale), tileMax = (x: (ox + 256) / scale, y: (oy + 256) / scale)
        func overlaps(_ f: ProjectedFeature, _ left: Double, _ right: Double, _ vertical: Double) -> Bool {
            f.maxX >= tileMin.x - left && f.minX <= tileMax.x + right
                && f.maxY >= tileMin.y - vertical && f.minY <= tileMax.y + vertical
        }
        @inline(__always) func px(_ p: WorldPixel) -> (Double, Double) { (p.x * scale - ox, p.y * scale - oy) }

        for feature in features where overlaps(feature, margin, margin, margin) {
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
        guard symbolizer.labelProperty != nil else { return }
        context.setFont(size: symbolizer.labelSize)
        let reach = (256 / scale, symbolizer.labelSize * 2 / scale)
        for index in labels.placed(atLevel: coord.z) where overlaps(features[index], reach.0, margin, reach.1) {
            let (x, y) = px(features[index].points[0])
            context.text(features[index].label!, x: x + labels.textOffset, y: y + symbolizer.labelSize / 3,
                         color: symbolizer.labelColor, halo: symbolizer.labelHalo)
        }
    }

    private func trace(_ ring: [WorldPixel], closed: Bool, _ context: DrawingContext,
                       _ px: (WorldPixel) -> (Double, Double)) {
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
    private func traceOutline(_ ring: [WorldPixel], _ context: DrawingContext, _ px: (WorldPixel) -> (Double, Double)) {
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
        let e = 1e-7
        func near(_ v: Double, _ edge: Double) -> Bool { abs(v - edge) < e }
        return (near(a.x, 0) && near(b.x, 0)) || (near(a.x, 256) && near(b.x, 256))
            || (near(a.y, 0) && near(b.y, 0)) || (near(a.y, 256) && near(b.y, 256))
    }
}
