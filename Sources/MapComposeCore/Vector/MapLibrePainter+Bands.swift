import CCairo
import Foundation

extension MapLibrePainter {
    /// The fewest rows a band holds. Every band goes through all the features (placed once for
    /// all of them, see `MapLibrePlacedFeatures`; only the drawing is shared out), so more bands
    /// repeat more of the paint evaluation.
    static let minimumBandRows = 256
    /// The most bands a map is cut into (more cost every map more CPU than they save on two
    /// cores). The bands depend on the map's rows only, never on the cores: where a band starts
    /// can move a `line-pattern`'s samples by a level, so the same bands keep a map the same file
    /// on any machine.
    static let maximumBands = 4

    /// Draws the scene as `draw(on:)` does, with the layers below the first symbol layer drawn in
    /// horizontal bands of the map (`minimumBandRows`, `maximumBands`) on all cores: each band
    /// with its own Cairo context on its own view of its rows, clipped as `context` is, drawing
    /// every feature (Cairo rasterises only what falls in the band, and each pixel is drawn by one
    /// band, so the map is the one a single context draws; a `line-pattern`'s image, sampled at a
    /// slant, within a level or two, as the band's offset can move a sample across one of
    /// pixman's steps of bilinear weights). Labels are placed on another core at the same time,
    /// then the symbol layers and those above them are drawn on `context` as before. Only where
    /// that is the same drawing: straight on a raster image (not in a group), with the identity
    /// transform, the OVER operator and a clip of one whole-pixel rectangle, with
    /// `drawsConcurrently` set, on a map tall enough for two bands. Returns false, drawing
    /// nothing, in every other case.
    func drawInBands(on context: DrawingContext) -> Bool {
        guard let (raster, clip) = context.bandableTarget() else { return false }
        let rows = (Int(clip.minY)..<Int(clip.maxY)).clamped(to: 0..<raster.height)
        let firstSymbol = group.layers.firstIndex { $0.kind == .symbol } ?? group.layers.count
        guard group.layers[..<firstSymbol].contains(where: { $0.isVisible(glZoom: glZoom) }) else { return false }
        let count = min(Self.maximumBands, rows.count / Self.minimumBandRows)
        guard count > 1, clip.width * Double(rows.count) >= Double(DrawingContext.bandedPaintMinimumPixels) else {
            return false
        }
        let bands = (0..<count).map { band in
            (rows.lowerBound + rows.count * band / count)..<(rows.lowerBound + rows.count * (band + 1) / count)
        }
        // Views are made here, on one thread: making one flushes the surface it views.
        let views: [RasterImage]
        do {
            views = try bands.map { band throws(CairoError) in try raster.view(rows: band) }
        } catch {
            context.pendingError = context.pendingError ?? error
            return true
        }
        var banded = self
        banded.drawsFromPrivateViews = true
        let placesLabels = firstSymbol < group.layers.count
        let placed = PlacedLabels()
        do {
            // The labels first (index 0), so that their placement starts at once.
            try ConcurrentWork.run(views.count + (placesLabels ? 1 : 0)) { index throws(CairoError) in
                if placesLabels, index == 0 {
                    placed.labels = placeLabels()
                    return
                }
                let band = try DrawingContext(views[index - (placesLabels ? 1 : 0)])
                band.drawsConcurrently = false
                band.rectangle(clip.minX, clip.minY, clip.width, clip.height)
                band.clip()
                banded.draw(layers: 0..<firstSymbol, labels: [:], on: band)
                try band.finish("draw band of rows")
            }
        } catch {
            context.pendingError = context.pendingError ?? error
        }
        cairo_surface_mark_dirty(context.surface)
        if placesLabels {
            draw(layers: firstSymbol..<group.layers.count, labels: placed.labels, on: context)
        }
        return true
    }

    /// The labels, placed on one thread while bands are drawn on others.
    private final class PlacedLabels: @unchecked Sendable {
        var labels: [Int: [MapLibreLabel]] = [:]
    }
}
