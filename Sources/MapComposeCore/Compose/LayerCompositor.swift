import Foundation

/// Draws one layer's mosaic onto the map inside its own group, clipped to the world's
/// vertical extent and the layer's bounds, then paints the group with opacity and blend.
struct LayerCompositor {
    let viewport: Viewport

    func composite(_ mosaic: TileMosaic, bounds: GeoBounds?, opacity: Double, blend: BlendMode,
                   onto context: DrawingContext) {
        let level = mosaic.level
        let f = viewport.scaleFactor(forLevel: level) / Double(mosaic.pixelRatio)
        let topLeft = viewport.devicePoint(worldX: Double(mosaic.minX * 256),
                                           worldY: Double(mosaic.minY * 256), level: level)
        context.beginGroup()
        context.save()
        clip(bounds: bounds ?? .world, context: context)
        context.draw(mosaic.image, x: topLeft.x, y: topLeft.y, scale: f, padEdges: true)
        context.restore()
        context.endGroup(alpha: opacity, blend: blend)
    }

    /// Clips to `bounds` in every copy of the world the output shows.
    private func clip(bounds: GeoBounds, context: DrawingContext) {
        let zoom = viewport.deviceZoom
        let world = WebMercator.worldSize(atZoom: zoom)
        let nw = WebMercator.worldPixel(from: LonLat(lon: bounds.west, lat: bounds.north), zoom: zoom)
        let se = WebMercator.worldPixel(from: LonLat(lon: bounds.east, lat: bounds.south), zoom: zoom)
        let origin = viewport.originWorldPixel
        let width = Double(viewport.deviceWidth)
        let firstCopy = Int(floor((origin.x - se.x) / world))
        let lastCopy = Int(ceil((origin.x + width - nw.x) / world))
        // Rectangles are cut to the output first: Cairo's 24.8 fixed point cannot hold the
        // world-sized coordinates of deep zooms.
        let limitX = Double(viewport.deviceWidth) + 2, limitY = Double(viewport.deviceHeight) + 2
        context.newPath()
        for copy in firstCopy...max(firstCopy, lastCopy) {
            let shift = Double(copy) * world
            let left = max(nw.x + shift - origin.x, -2), right = min(se.x + shift - origin.x, limitX)
            let top = max(nw.y - origin.y, -2), bottom = min(se.y - origin.y, limitY)
            if right > left && bottom > top {
                context.rectangle(left, top, right - left, bottom - top)
            }
        }
        context.clip()
    }
}
