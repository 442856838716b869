import Foundation

/// Draws one layer onto the map: `begin` clips to where the layer may paint (its grid's
/// extent and its bounds, in every copy of the world the output shows) and opens the layer's
/// group, `draw` places mosaics (one, or several blocks, or later a fallback and an exact
/// level), and `end` paints the group with the layer's opacity and blend.
struct LayerCompositor {
    let viewport: Viewport
    let plan: LayerPlan
    /// True when the group must be painted separately (opacity or blend); plain opaque
    /// source-over layers draw straight onto the map, saving a full-size surface.
    var usesGroup: Bool {
        plan.layer.spec.opacity < 1 || plan.layer.spec.blend != .srcOver
    }

    func begin(on context: DrawingContext) {
        context.save()
        clipToLayerArea(context)
        if usesGroup { context.beginGroup() }
    }

    /// Draws `mosaic`. A block of a layer drawn in several blocks paints only inside its own
    /// cells, with the edges it shares with other blocks rounded to whole device pixels, so
    /// neighbouring blocks meet exactly; its outer edges stay where a single mosaic's would.
    func draw(_ mosaic: TileMosaic, neighbours: TileBlock.Sides?, on context: DrawingContext) {
        let matrix = plan.matrix, level = mosaic.range.level
        let extent = matrix.tileExtent(level: level, column: mosaic.range.columns.lowerBound, row: mosaic.range.rows.lowerBound)
        let metresPerMosaicPixel = matrix.levels[level].resolution * Double(matrix.tileWidth) / Double(mosaic.cellWidth)
        let scale = metresPerMosaicPixel / viewport.resolution
        let corner = viewport.devicePoint(x: extent.minX, y: extent.maxY)
        context.save()
        if let neighbours {
            let right = corner.x + Double(mosaic.range.columns.count * mosaic.cellWidth) * scale
            let bottom = corner.y + Double(mosaic.range.rows.count * mosaic.cellHeight) * scale
            func snap(_ value: Double, _ shared: Bool) -> Double { shared ? value.rounded() : value }
            let rect = Self.cutToOutput(left: snap(corner.x, neighbours.left), top: snap(corner.y, neighbours.top),
                                        right: snap(right, neighbours.right), bottom: snap(bottom, neighbours.bottom),
                                        viewport: viewport)
            context.newPath()
            if let rect { context.rectangle(rect.left, rect.top, rect.right - rect.left, rect.bottom - rect.top) }
            context.clip()
        }
        context.draw(mosaic.image, x: corner.x - Double(mosaic.margins.left) * scale,
                     y: corner.y - Double(mosaic.margins.top) * scale, scale: scale, padEdges: true)
        context.restore()
    }

    func end(on context: DrawingContext) {
        if usesGroup { context.endGroup(alpha: plan.layer.spec.opacity, blend: plan.layer.spec.blend) }
        context.restore()
    }

    /// Clips to the layer's grid extent at its level, intersected with its bounds, in every
    /// copy of the world the output shows (only one for grids that do not wrap).
    private func clipToLayerArea(_ context: DrawingContext) {
        let matrix = plan.matrix
        var area = matrix.matrixExtent(level: plan.level)
        let world = 2 * WebMercator.originShift
        let wraps = matrix.wrapsAroundWorld(level: plan.level)
        if let bounds = plan.bounds {
            if wraps {
                area = MetersRect(minX: bounds.minX, minY: max(area.minY, bounds.minY),
                                  maxX: bounds.maxX, maxY: min(area.maxY, bounds.maxY))
            } else {
                area = area.intersection(bounds) ?? MetersRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
            }
        }
        let view = viewport.extent
        var copies = [0]
        if wraps {
            if plan.bounds == nil {
                area = MetersRect(minX: view.minX, minY: area.minY, maxX: view.maxX, maxY: area.maxY)
            } else {
                let first = Int(floor((view.minX - area.maxX) / world)), last = Int(ceil((view.maxX - area.minX) / world))
                copies = Array(first...max(first, last))
            }
        }
        context.newPath()
        for copy in copies {
            let shifted = area.shifted(x: Double(copy) * world)
            let topLeft = viewport.devicePoint(x: shifted.minX, y: shifted.maxY)
            let bottomRight = viewport.devicePoint(x: shifted.maxX, y: shifted.minY)
            if let rect = Self.cutToOutput(left: topLeft.x, top: topLeft.y, right: bottomRight.x, bottom: bottomRight.y,
                                           viewport: viewport) {
                context.rectangle(rect.left, rect.top, rect.right - rect.left, rect.bottom - rect.top)
            }
        }
        context.clip()
    }

    /// A device rectangle cut to the output (plus a little): Cairo's 24.8 fixed point cannot
    /// hold the world-sized coordinates of deep zooms. Nil when nothing is left.
    static func cutToOutput(left: Double, top: Double, right: Double, bottom: Double,
                            viewport: Viewport) -> (left: Double, top: Double, right: Double, bottom: Double)? {
        let limitX = Double(viewport.deviceWidth) + 2, limitY = Double(viewport.deviceHeight) + 2
        let l = max(left, -2), t = max(top, -2), r = min(right, limitX), b = min(bottom, limitY)
        return r > l && b > t ? (l, t, r, b) : nil
    }
}
