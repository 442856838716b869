import Foundation
import Logging

/// A finished render: the image and what went into it.
public struct RenderResult: Sendable {
    public let image: RasterImage
    public let report: RenderReport
}

/// Options that change how a render is drawn (not what it shows).
public struct RenderOptions: Sendable {
    /// Draw the attribution text in the bottom-right corner.
    public var attribution = true

    public init(attribution: Bool = true) {
        self.attribution = attribution
    }
}

/// Renders a `MapStyle` for a `Viewport`: background, then each visible layer in z-order as
/// its own group with its opacity and blend, then the overlays (the style's, then the
/// renderer's own) and the attribution.
///
/// Layers are composited in order as their tiles arrive; tiles are resolved block by block a
/// few blocks ahead of the one being drawn, so memory does not grow with the number of layers
/// or the size of the output. Tiles come from a `TileStore` that may be shared by many renders.
/// A map that would be one layer's tiles exactly as they are, with nothing else drawn, is a
/// read-only view of the slab they were decoded into rather than a copy (see
/// `LayerCompositor.tilesAsMap`); `render` hands out a copy of it, `renderPixels` the view.
/// Tiles in the store are never written to.
public struct MapRenderer: Sendable {
    public let style: MapStyle
    public let options: RenderOptions
    public let store: TileStore
    /// Drawn above the style's overlays.
    public let overlays: [Overlay]
    let logger: Logger
    /// Most pixels on a side of one block's mosaic (smaller in tests, to exercise block seams).
    var mosaicSide = LayerPlan.maxMosaicSide
    /// Most pixels across one strip (smaller in tests, to compare).
    var stripWidth = LayerPlan.maxStripWidth
    /// Large paints and mosaics drawn in bands, on all cores (off in tests, to compare).
    var drawsConcurrently = true
    /// The map may be a view of its only layer's tiles (see `LayerCompositor.tilesAsMap`; off in
    /// tests, to compare).
    var mayViewTiles = true
    /// Layers whose tiles are resampled are drawn a strip of tiles at a time (see
    /// `LayerPlan.blocks`; off in tests, to compare).
    var drawsInStrips = true

    /// Blocks of tiles resolved ahead of the one being drawn.
    static let lookahead = 3

    public init(style: MapStyle, options: RenderOptions = RenderOptions(), store: TileStore = TileStore(),
                overlays: [Overlay] = [],
                logger: Logger = Logger(label: "mapcompose", factory: { _ in SwiftLogNoOpLogHandler() })) {
        self.style = style
        self.options = options
        self.store = store
        self.overlays = overlays
        self.logger = logger
    }

    /// One block of one level of one layer: the unit of fetching and drawing.
    private struct WorkItem {
        let layer: Int
        let pass: Int
        let block: Int
    }

    /// Renders the map; with `decorated: false` only the background and layers, for a caller
    /// that draws the overlays and attribution itself (as vectors, see `decorate`).
    public func render(_ viewport: Viewport, decorated: Bool = true) async throws(CairoError) -> RenderResult {
        let started = ContinuousClock.now
        var (pixels, report) = try await renderPixels(viewport, decorated: decorated)
        // The caller owns what it gets: a view of cached tiles is copied.
        let image = pixels.viewsTiles
            ? try pixels.image.cropped(x: 0, y: 0, width: pixels.image.width, height: pixels.image.height) : pixels.image
        report.durationMs = started.duration(to: .now).milliseconds
        return RenderResult(image: image, report: report)
    }

    /// The map's pixels: an image of its own, or a view of cached tiles that nothing may write into.
    struct MapPixels {
        let image: RasterImage
        let viewsTiles: Bool
    }

    /// As `render`, with the map possibly a read-only view of cached tiles, for an encoder that
    /// only reads it.
    func renderPixels(_ viewport: Viewport, decorated: Bool) async throws(CairoError) -> (pixels: MapPixels, report: RenderReport) {
        let started = ContinuousClock.now
        let plans = style.layers.map {
            LayerPlan(layer: MapLayer(spec: $0.spec, source: $0.source.forViewport(viewport)), viewport: viewport,
                      mosaicSide: mosaicSide, stripWidth: stripWidth, strips: drawsInStrips)
        }
        let items = plans.indices.flatMap { layer in
            plans[layer].passes.indices.flatMap { pass in
                plans[layer].passes[pass].blocks.indices.map { WorkItem(layer: layer, pass: pass, block: $0) }
            }
        }
        // MapLibre styles drawn as layers: their features are drawn, not tiles composited.
        let groups = plans.map { $0.layer.source as? MapLibreGroup }
        let mayShowTilesAsMap = mayViewTiles && items.count == 1 && groups[items[0].layer] == nil
            && mapMayBeTiles(plans[items[0].layer], block: plans[items[0].layer].passes[0].blocks[0], viewport,
                             decorated: decorated)
        // The map, made when first drawn on (a new image is already transparent: only a
        // visible background is painted), unless it is a view of the tiles.
        var canvas: (image: RasterImage, context: DrawingContext)?
        func drawingCanvas() throws(CairoError) -> (image: RasterImage, context: DrawingContext) {
            if let canvas { return canvas }
            // A background sets every pixel: the memory need not be cleared first.
            let painted = style.document.background.a != 0
            let image = painted ? try RasterImage(unclearedWidth: viewport.deviceWidth, height: viewport.deviceHeight)
                : try RasterImage(width: viewport.deviceWidth, height: viewport.deviceHeight)
            let context = try DrawingContext(image)
            context.drawsConcurrently = context.drawsConcurrently && drawsConcurrently
            if painted { context.clearInBands(to: style.document.background) }
            canvas = (image, context)
            return (image, context)
        }
        var tilesAsMap: RasterImage?
        let resolver = TileResolver(store: store)
        var pending: [Int: Task<ResolvedWork, Never>] = [:]
        // Work resolved before its turn: the strip below the one being drawn, for its ring.
        var early: [Int: ResolvedWork] = [:]
        // The strip drawn last, for the ring of the one below it.
        var lastStrip: (index: Int, resolved: ResolvedBlock)?
        var nextToStart = 0
        defer { pending.values.forEach { $0.cancel() } }
        var reports = plans.map(\.emptyReport)
        var recorders = plans.map { LayerRecorder(plan: $0) }
        var decoded = 0
        var sceneProblems: [Int: [String]] = [:]
        for (index, item) in items.enumerated() {
            while nextToStart < items.count, nextToStart <= index + Self.lookahead {
                let ahead = items[nextToStart], plan = plans[ahead.layer]
                let pass = plan.passes[ahead.pass], block = pass.blocks[ahead.block]
                if let group = groups[ahead.layer] {
                    pending[nextToStart] = Task { .scene(await group.prepare(viewport)) }
                } else {
                    pending[nextToStart] = Task { .tiles(await resolver.resolve(block, level: pass, of: plan)) }
                }
                nextToStart += 1
            }
            let work: ResolvedWork
            if let resolved = early.removeValue(forKey: index) {
                work = resolved
            } else {
                work = await pending.removeValue(forKey: index)!.value
            }
            let plan = plans[item.layer], pass = plan.passes[item.pass], block = pass.blocks[item.block]
            let resolved: ResolvedBlock
            switch work {
            case .tiles(let block): resolved = block
            case .scene(let scene):
                let context = try drawingCanvas().context
                let compositor = LayerCompositor(viewport: viewport, plan: plan)
                compositor.begin(on: context)
                MapLibrePainter(group: groups[item.layer]!, scene: scene, viewport: viewport).draw(on: context)
                compositor.end(on: context)
                try context.finish("draw layer '\(plan.layer.spec.id)'")
                sceneProblems[item.layer] = scene.problems
                reports[item.layer].tilesRequested = scene.tiles.values.reduce(0) { $0 + $1.count } + scene.problems.count
                reports[item.layer].tilesDrawn = scene.tiles.values.reduce(0) { $0 + $1.count }
                continue
            }
            decoded += [resolved.tiles, resolved.ancestors, resolved.descendants].reduce(0) { sum, tiles in
                sum + tiles.values.count { if case .source(decoded: true) = $0.provenance { true } else { false } }
            }
            recorders[item.layer].record(block.tiles, from: resolved.tiles)
            if item.block == pass.blocks.count - 1 { recorders[item.layer].record(outsideBounds: pass.outsideBounds) }
            let compositor = LayerCompositor(viewport: viewport, plan: plan, firstBlock: (resolved, block))
            if mayShowTilesAsMap, let view = try compositor.tilesAsMap(resolved, block: block) {
                tilesAsMap = view
                continue
            }
            var drawn = resolved
            if block.ringFromStrips {
                // The strips above and below hold the ring's tiles.
                let above = item.block > 0 ? lastStrip.flatMap { $0.index == index - 1 ? $0.resolved : nil } : nil
                var below: ResolvedBlock?
                if item.block + 1 < pass.blocks.count {
                    if early[index + 1] == nil, let task = pending.removeValue(forKey: index + 1) {
                        early[index + 1] = await task.value
                    }
                    if case .tiles(let next) = early[index + 1] { below = next }
                }
                let neighbours = [above, below].compactMap { $0 }
                drawn.tiles.merge(Self.ring(of: block, from: neighbours, matrix: plan.matrix)) { own, _ in own }
                // Their stand-ins too: a stand-in's edge next to theirs blends with it, as in one block.
                for neighbour in neighbours {
                    drawn.ancestors.merge(neighbour.ancestors) { own, _ in own }
                    drawn.descendants.merge(neighbour.descendants) { own, _ in own }
                }
                lastStrip = (index, resolved)
            }
            let context = try drawingCanvas().context
            if item.pass == 0, item.block == 0 { compositor.begin(on: context) }
            if item.block == 0 { compositor.beginLevel(pass, on: context) }
            try compositor.draw(drawn, block: block, level: pass, on: context)
            if item.block == pass.blocks.count - 1 {
                compositor.endLevel(pass, on: context)
                if item.pass == plan.passes.count - 1 {
                    compositor.end(on: context)
                    try context.finish("composite layer '\(plan.layer.spec.id)'")
                }
            }
        }
        var diagnostics: [RenderDiagnostic] = []
        for (index, plan) in plans.enumerated() {
            if plan.skip == nil, groups[index] != nil {
                diagnostics += (sceneProblems[index] ?? []).map {
                    RenderDiagnostic(kind: .tileProblem, layer: plan.layer.spec.id, detail: $0)
                }
            } else if plan.skip == nil {
                recorders[index].fill(&reports[index])
                diagnostics += recorders[index].diagnostics(layer: plan.layer.spec.id, level: plan.level)
            } else if let skip = plan.skip, skip.isWarning {
                diagnostics.append(.layerSkipped(layer: plan.layer.spec.id, reason: skip.description))
            }
            logger.debug("layer drawn", metadata: [
                "layer": "\(plan.layer.spec.id)", "level": "\(reports[index].level.map(String.init) ?? "-")",
                "drawn": "\(reports[index].tilesDrawn)", "missing": "\(reports[index].tilesMissing)"])
        }
        if options.attribution, attribution.wasCut { diagnostics.append(.attributionCut(limit: AttributionText.maxLength)) }
        let pixels: MapPixels
        if let tilesAsMap {
            pixels = MapPixels(image: tilesAsMap, viewsTiles: true)
        } else {
            let canvas = try drawingCanvas()
            if decorated { decorate(canvas.context, viewport) }
            try canvas.context.finish("render map")
            pixels = MapPixels(image: canvas.image, viewsTiles: false)
        }
        let extent = viewport.extent
        let report = RenderReport(
            status: .ok, error: nil, style: style.document.name, center: [viewport.center.lat, viewport.center.lon],
            zoom: viewport.zoom, size: [viewport.width, viewport.height], scale: viewport.scale,
            pixels: [viewport.deviceWidth, viewport.deviceHeight],
            bbox3857: [extent.minX, extent.minY, extent.maxX, extent.maxY],
            durationMs: started.duration(to: .now).milliseconds, tilesDecoded: decoded, layers: reports,
            diagnostics: diagnostics)
        return (pixels, report)
    }

    /// The tiles of `block`'s ring that the neighbouring strips `neighbours` hold, keyed by
    /// wrapped coordinate.
    private static func ring(of block: TileBlock, from neighbours: [ResolvedBlock],
                             matrix: TileMatrix) -> [TileCoord: ResolvedTile] {
        var tiles: [TileCoord: ResolvedTile] = [:]
        for coord in block.ring {
            let key = matrix.wrapped(coord)
            if let tile = neighbours.lazy.compactMap({ $0.tiles[key] }).first { tiles[key] = tile }
        }
        return tiles
    }

    /// What was fetched for one work item: a block of tiles, or what a MapLibre style draws.
    private enum ResolvedWork: Sendable {
        case tiles(ResolvedBlock)
        case scene(MapLibreScene)
    }

    /// True when the map may be the slab of the tiles of `block`, the only block of the only
    /// layer drawn (see `LayerCompositor.tilesAsMap`): the layer leaves pixels as its tiles have
    /// them, on a transparent background, and nothing is drawn over them. Decided before the tiles are
    /// read; whether they are all there, in one slab, is known only once they are.
    private func mapMayBeTiles(_ plan: LayerPlan, block: TileBlock, _ viewport: Viewport, decorated: Bool) -> Bool {
        guard style.document.background.a == 0, LayerCompositor(viewport: viewport, plan: plan)
            .mapMayBe(block) else { return false }
        return !decorated || (style.document.overlays.isEmpty && overlays.isEmpty
            && (!options.attribution || attributionText.isEmpty))
    }

    /// Draws the overlays and the attribution (when asked for) in device pixels.
    func decorate(_ context: DrawingContext, _ viewport: Viewport) {
        OverlayPainter(viewport: viewport).paint(style.document.overlays + overlays, onto: context)
        if options.attribution {
            AttributionPainter(viewport: viewport).paint(attributionText, onto: context)
        }
    }

    /// The style's attribution followed by source attributions it does not already contain.
    var attribution: AttributionText {
        AttributionText([style.document.attribution] + style.layers.map(\.source.info.attribution))
    }

    var attributionText: String { attribution.text }
}
