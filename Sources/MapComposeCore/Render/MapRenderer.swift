import Foundation

/// A finished render: the image and what went into it.
public struct RenderResult: Sendable {
    public let image: RasterImage
    public let report: RenderReport
}

/// Options that change how a render is drawn (not what it shows).
public struct RenderOptions: Sendable {
    /// Draw the attribution text in the bottom-right corner.
    public var attribution = true
    /// Most tile requests in flight per layer.
    public var concurrency = 8

    public init(attribution: Bool = true, concurrency: Int = 8) {
        self.attribution = attribution
        self.concurrency = concurrency
    }
}

/// Renders a `MapStyle` for a `Viewport`: background, then each visible layer in z-order as
/// its own group with its opacity and blend, then the attribution.
public struct MapRenderer: Sendable {
    public let style: MapStyle
    public let options: RenderOptions

    public init(style: MapStyle, options: RenderOptions = RenderOptions()) {
        self.style = style
        self.options = options
    }

    public func render(_ viewport: Viewport) async throws(CairoError) -> RenderResult {
        let started = ContinuousClock.now
        let image = try RasterImage(width: viewport.deviceWidth, height: viewport.deviceHeight)
        let context = try DrawingContext(image)
        context.clear(to: style.document.background)
        var layerReports: [LayerReport] = []
        var decoded = 0
        for layer in style.layers {
            let (report, count) = try await draw(layer, viewport: viewport, onto: context)
            layerReports.append(report)
            decoded += count
        }
        if options.attribution {
            AttributionPainter(viewport: viewport).paint(attributionText, onto: context)
        }
        try context.finish("render map")
        let elapsed = started.duration(to: .now)
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let report = RenderReport(
            style: style.document.name, center: [viewport.center.lat, viewport.center.lon],
            zoom: viewport.zoom, size: [viewport.width, viewport.height], scale: viewport.scale,
            pixels: [viewport.deviceWidth, viewport.deviceHeight], durationMs: ms,
            tilesDecoded: decoded, layers: layerReports)
        return RenderResult(image: image, report: report)
    }

    /// The style's attribution followed by any distinct source attributions.
    var attributionText: String {
        var parts: [String] = []
        for text in [style.document.attribution] + style.layers.map(\.source.info.attribution) {
            if let text, !text.isEmpty, !parts.contains(text) { parts.append(text) }
        }
        return parts.joined(separator: " | ")
    }

    private func draw(_ layer: MapLayer, viewport: Viewport,
                      onto context: DrawingContext) async throws(CairoError) -> (LayerReport, Int) {
        let spec = layer.spec
        var report = LayerReport(id: spec.id, source: spec.source.typeName, visible: false, skipped: nil,
                                 level: nil, opacity: spec.opacity, blend: spec.blend.rawValue,
                                 tilesRequested: 0, tilesDrawn: 0, tilesMissing: 0, problems: [], tiles: [])
        guard spec.isVisible(atZoom: viewport.zoom) else {
            report.skipped = "zoom \(viewport.zoom) is outside minzoom \(spec.minzoom) … maxzoom \(spec.maxzoom)"
            return (report, 0)
        }
        guard spec.opacity > 0 else {
            report.skipped = "opacity is 0"
            return (report, 0)
        }
        let info = layer.source.info
        let bounds = Self.intersect(spec.bounds, info.bounds)
        if spec.bounds != nil, info.bounds != nil, bounds == nil {
            report.skipped = "layer bounds and source bounds do not overlap"
            return (report, 0)
        }
        let pixelRatio = info.drawsAtAnyPixelRatio ? max(1, Int(viewport.scale.rounded())) : 1
        let level = viewport.tileLevel(in: info.nativeZoom, pixelRatio: pixelRatio)
        report.visible = true
        report.level = level
        let covering = viewport.coveringTiles(level: level)
            .filter { bounds == nil || $0.wrapped.bounds.intersects(bounds!) }
        guard !covering.isEmpty else {
            report.skipped = "no tile of level \(level) intersects the layer's bounds here"
            return (report, 0)
        }
        let tiles = await TileFetcher(source: layer.source, concurrency: options.concurrency, pixelRatio: pixelRatio).resolve(covering)
        var decoded = 0
        for tile in tiles.values.sorted(by: { ($0.coord.y, $0.coord.x) < ($1.coord.y, $1.coord.x) }) {
            if tile.decoded { decoded += 1 }
            switch tile.content {
            case .image:
                report.tilesDrawn += 1
                report.tiles.append(TileReport(tile: tile.coord.description, status: .drawn, origin: tile.origin))
            case .missing(let reason):
                report.tilesMissing += 1
                report.tiles.append(TileReport(tile: tile.coord.description, status: .missing,
                                               origin: tile.origin, reason: reason.description))
                if reason.isProblem {
                    report.problems.append("layer '\(spec.id)': tile \(tile.coord) (\(tile.origin)): \(reason)")
                }
            }
        }
        report.tilesRequested = tiles.count
        if report.tilesDrawn > 0 {
            let mosaic = try TileMosaic(level: level, pixelRatio: pixelRatio, range: covering, tiles: tiles)
            LayerCompositor(viewport: viewport)
                .composite(mosaic, bounds: bounds, opacity: spec.opacity, blend: spec.blend, onto: context)
        }
        return (report, decoded)
    }

    static func intersect(_ a: GeoBounds?, _ b: GeoBounds?) -> GeoBounds? {
        guard let a else { return b }
        guard let b else { return a }
        let result = GeoBounds(west: max(a.west, b.west), south: max(a.south, b.south),
                               east: min(a.east, b.east), north: min(a.north, b.north))
        return result.west < result.east && result.south < result.north ? result : nil
    }
}
