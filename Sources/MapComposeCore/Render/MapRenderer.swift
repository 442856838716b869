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
        // Every layer's tiles are fetched and decoded at once; layers are composited in z-order.
        let plans = style.layers.map { LayerPlan(layer: $0, viewport: viewport) }
        let fetches = plans.map { plan -> Task<[TileCoord: ResolvedTile], Never>? in
            guard plan.skipped == nil else { return nil }
            let fetcher = TileFetcher(source: plan.layer.source, concurrency: options.concurrency,
                                      pixelRatio: plan.pixelRatio)
            return Task { await fetcher.resolve(plan.covering) }
        }
        defer { fetches.forEach { $0?.cancel() } }
        var layerReports: [LayerReport] = []
        var decoded = 0
        for (plan, fetch) in zip(plans, fetches) {
            var report = plan.emptyReport
            if let fetch, let level = plan.level {
                let tiles = await fetch.value
                decoded += report.record(tiles)
                if report.tilesDrawn > 0 {
                    let spec = plan.layer.spec
                    let ratio = max(plan.pixelRatio, TileMosaic.pixelRatio(of: tiles))
                    let mosaic = try TileMosaic(level: level, pixelRatio: ratio, range: plan.covering, tiles: tiles)
                    LayerCompositor(viewport: viewport)
                        .composite(mosaic, bounds: plan.bounds, opacity: spec.opacity, blend: spec.blend, onto: context)
                }
            }
            layerReports.append(report)
        }
        if options.attribution {
            AttributionPainter(viewport: viewport).paint(attributionText, onto: context)
        }
        try context.finish("render map")
        let ms = started.duration(to: .now).milliseconds
        let report = RenderReport(
            style: style.document.name, center: [viewport.center.lat, viewport.center.lon],
            zoom: viewport.zoom, size: [viewport.width, viewport.height], scale: viewport.scale,
            pixels: [viewport.deviceWidth, viewport.deviceHeight], durationMs: ms,
            tilesDecoded: decoded, layers: layerReports)
        return RenderResult(image: image, report: report)
    }

    /// The style's attribution followed by source attributions it does not already contain.
    var attributionText: String {
        var parts: [String] = []
        for text in [style.document.attribution] + style.layers.map(\.source.info.attribution) {
            guard let text, !text.isEmpty else { continue }
            if !parts.contains(where: { $0.localizedCaseInsensitiveContains(text) }) { parts.append(text) }
        }
        return parts.joined(separator: " | ")
    }
}
