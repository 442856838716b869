import CCairo
import Foundation

/// Draws one layer onto the map: `begin` clips to where the layer may paint (its grid's
/// extent and its bounds, in every copy of the world the output shows) and opens the layer's
/// group; for each level (`beginLevel`/`endLevel`, a sub-group when a crossfade draws it at a
/// weight) `draw` places its blocks: the missing-tile fill, ancestors and descendants standing
/// in for missing tiles, then the exact tiles on top; `end` paints the group with the layer's
/// opacity and blend. A layer of several blocks and one level has no group of its own: each
/// block that needs one gets a group of its own size (see `groupsEachBlock`).
struct LayerCompositor {
    let viewport: Viewport
    let plan: LayerPlan
    /// True when the layer's tiles are painted straight onto the map with its opacity (see
    /// `paintsOnce`) instead of into a group painted with it: for a layer of one block, that
    /// block; for a layer whose blocks are grouped each on their own, the block this compositor
    /// was made for.
    private(set) var paintsStraight = false

    /// A compositor for `plan`; given the layer's first resolved block (or, for a layer whose
    /// blocks are grouped each on their own, the block to draw), it paints straight onto the
    /// map when that block is all it paints there, once (see `paintsOnce`).
    init(viewport: Viewport, plan: LayerPlan, firstBlock: (resolved: ResolvedBlock, block: TileBlock)? = nil) {
        self.viewport = viewport
        self.plan = plan
        if let firstBlock { paintsStraight = paintsOnce(firstBlock.resolved, block: firstBlock.block) }
    }

    /// True when what the layer draws must be painted as a group (opacity, blend, or levels
    /// drawn at a weight); plain opaque source-over layers draw straight onto the map.
    private var needsGroup: Bool {
        plan.opacity < 1 || plan.layer.spec.blend != .srcOver || plan.passes.count > 1
    }

    /// True when each block of the layer is painted on its own: straight, or in a group clipped
    /// to the block's own cells, painted with the layer's opacity and blend. Blocks paint only
    /// inside their cells, with the edges they share rounded to whole device pixels, so no
    /// pixel is painted by two blocks and this gives the pixels one group for the whole layer
    /// gives, without a group the size of the map. For layers of several blocks and one level.
    var groupsEachBlock: Bool { plan.isBlocked && plan.passes.count == 1 }

    /// True when the layer is painted through one group the size of the map.
    var usesGroup: Bool {
        !paintsStraight && !groupsEachBlock && needsGroup
    }

    /// The alpha tiles are painted with: the layer's opacity when they are painted straight.
    private var paintAlpha: Double { paintsStraight ? plan.opacity : 1 }

    /// True when `resolved` is drawn by painting each pixel of the output it covers once: the
    /// layer's only level, every tile of the block there, so no fill and no stand-ins are drawn
    /// under the tiles, the layer blends source-over, and its area covers the output, so no clip
    /// edge crosses a pixel. Painting once with the layer's opacity then gives the pixels that
    /// painting into a group and the group with the opacity give, without a group, and the paint
    /// can be shared among cores. (The block is the layer's only one, or one of blocks grouped
    /// each on their own, which paint disjoint pixels.)
    private func paintsOnce(_ resolved: ResolvedBlock, block: TileBlock) -> Bool {
        plan.layer.spec.blend == .srcOver && plan.passes.count == 1 && plan.passes[0].alpha >= 1
            && resolved.parentLevel.isEmpty && resolved.withChildren.isEmpty
            && block.tiles.allSatisfy { resolved.tiles[plan.matrix.wrapped($0)]?.image != nil } && areaCoversOutput
    }

    func begin(on context: DrawingContext) {
        context.save()
        clipToLayerArea(context)
        if usesGroup { context.beginGroup() }
    }

    func beginLevel(_ pass: LevelPass, on context: DrawingContext) {
        if pass.alpha < 1 { context.beginGroup() }
    }

    func endLevel(_ pass: LevelPass, on context: DrawingContext) {
        if pass.alpha < 1 { context.endGroup(alpha: pass.alpha, blend: .srcOver) }
    }

    func end(on context: DrawingContext) {
        if usesGroup { context.endGroup(alpha: plan.opacity, blend: plan.layer.spec.blend) }
        context.restore()
    }

    /// Draws one resolved block: fill for tiles nothing covers, ancestors (coarsest first) and
    /// descendants under the tiles they stand in for, then the block's own mosaic; in a group
    /// of the block's own when the layer groups each block (see `groupsEachBlock`) and this one
    /// is not painted straight.
    func draw(_ resolved: ResolvedBlock, block: TileBlock, level pass: LevelPass,
              on context: DrawingContext) throws(CairoError) {
        guard groupsEachBlock, needsGroup, !paintsStraight else {
            try drawContent(resolved, block: block, level: pass, on: context)
            return
        }
        context.save()
        clipToBlockArea(block, context)
        context.beginGroup()
        do {
            try drawContent(resolved, block: block, level: pass, on: context)
        } catch {
            context.endGroup(alpha: 0, blend: .srcOver)
            context.restore()
            throw error
        }
        context.endGroup(alpha: plan.opacity, blend: plan.layer.spec.blend)
        context.restore()
    }

    /// What `draw` draws of one block, with no group of its own.
    private func drawContent(_ resolved: ResolvedBlock, block: TileBlock, level pass: LevelPass,
                             on context: DrawingContext) throws(CairoError) {
        let matrix = plan.matrix
        let neighbours = plan.isBlocked ? block.neighbours : nil
        let uncovered = block.tiles.filter { resolved.tiles[matrix.wrapped($0)]?.status == .missing }
        if !uncovered.isEmpty { drawMissingFill(uncovered, on: context) }
        for level in Set(resolved.parentLevel.values).sorted() {
            let cells = block.tiles.filter { resolved.parentLevel[$0] == level }
            let coords = Set(cells.map { TileResolver.ancestor(of: $0, levelsUp: pass.level - level) })
            try drawStandIns(Array(coords), from: resolved.ancestors, over: cells, on: context)
        }
        let owners = block.tiles.filter { resolved.withChildren.contains($0) }
        if !owners.isEmpty {
            for level in (pass.level + 1)...(pass.level + plan.layer.spec.fallback.children) {
                let depth = level - pass.level
                let coords = owners.flatMap { owner in
                    (0..<(1 << depth)).flatMap { dy in
                        (0..<(1 << depth)).map { dx in TileCoord(z: level, x: (owner.x << depth) + dx, y: (owner.y << depth) + dy) }
                    }
                }.filter { resolved.descendants[matrix.wrapped($0)] != nil }
                // Only over the descendants found: elsewhere the ancestor below shows.
                if !coords.isEmpty {
                    try drawStandIns(coords, from: resolved.descendants, over: coords, on: context)
                }
            }
        }
        if resolved.tiles.values.contains(where: { $0.image != nil }),
           !drawInPlace(block.tiles, of: block.range, tiles: resolved.tiles, neighbours: neighbours, on: context),
           try !drawStrip(block, tiles: resolved.tiles, on: context) {
            let mosaic = try TileMosaic(block: block, plan: plan, tiles: resolved.tiles, concurrently: context.drawsConcurrently)
            draw(mosaic, neighbours: neighbours, cells: nil, on: context)
        }
    }

    /// Draws a strip (a block whose ring comes from the strips above and below it) without
    /// stitching it: the rows of the map whose pixels its own tiles alone determine are painted
    /// from its own mosaic (its slab, when its tiles were decoded into one: no pixel copied),
    /// and the few rows on each shared edge from a mosaic of a few rows of both strips there.
    /// Each row is painted once, from pixels the filter reads as it reads one mosaic's. Only for
    /// filters that read a pixel's nearest source rows (nearest, bilinear); returns false,
    /// drawing nothing, for others.
    private func drawStrip(_ block: TileBlock, tiles: [TileCoord: ResolvedTile],
                           on context: DrawingContext) throws(CairoError) -> Bool {
        guard block.ringFromStrips else { return false }
        let matrix = plan.matrix, (cellWidth, cellHeight) = cellSize, sides = block.neighbours
        let placement = MosaicPlacement(plan: plan, viewport: viewport, range: block.range, cellWidth: cellWidth,
                                        margins: .init())
        let filter = DrawingContext.filter(x: placement.imageOrigin.x, y: placement.imageOrigin.y, scale: placement.scale,
                                           resampling: plan.layer.spec.resampling)
        guard filter == CAIRO_FILTER_BILINEAR || filter == CAIRO_FILTER_NEAREST else { return false }
        // Rows of each strip in a mosaic of an edge, and the device rows about the edge it paints:
        // those whose pixels lie within half as many source rows of the edge.
        let seam = TileMosaic.margin(of: matrix), height = block.range.rows.count * cellHeight
        let top = placement.corner.y, bottom = top + Double(height) * placement.scale
        let reach = Double(seam) / 2 * placement.scale
        let interior = (sides.top ? Int(ceil(top + reach)) : Int.min)..<(sides.bottom ? Int(floor(bottom - reach)) : Int.max)
        guard !interior.isEmpty else { return false }
        func tile(_ coord: TileCoord) -> RasterImage? { tiles[matrix.wrapped(coord)]?.image }
        let concurrently = context.drawsConcurrently
        if sides.top {
            let above = block.ring.filter { $0.y < block.range.rows.lowerBound }
            let edge = try TileMosaic(range: block.range, coords: above + block.tiles, cellWidth: cellWidth,
                                      cellHeight: cellHeight, margins: .init(top: seam), rows: 0..<2 * seam, tile: tile)
            draw(edge, neighbours: sides, cells: nil, rows: Int.min..<interior.lowerBound, on: context)
        }
        let own = try TileMosaic(range: block.range, coords: block.tiles, cellWidth: cellWidth, cellHeight: cellHeight,
                                 concurrently: concurrently, tile: tile)
        draw(own, neighbours: sides, cells: nil, rows: interior, on: context)
        if sides.bottom {
            let below = block.ring.filter { $0.y > block.range.rows.upperBound }
            let edge = try TileMosaic(range: block.range, coords: block.tiles + below, cellWidth: cellWidth,
                                      cellHeight: cellHeight, margins: .init(bottom: seam),
                                      rows: (height - seam)..<(height + seam), tile: tile)
            draw(edge, neighbours: sides, cells: nil, rows: interior.upperBound..<Int.max, on: context)
        }
        return true
    }

    /// Draws the tiles `coords` of `range` straight onto the map when that is what their mosaic
    /// would draw (see `InPlaceTiles`). This spares stitching a mosaic the size of the output.
    /// Returns false, drawing nothing, in every other case.
    private func drawInPlace(_ coords: [TileCoord], of range: TileRange, tiles: [TileCoord: ResolvedTile],
                             neighbours: TileBlock.Sides?, on context: DrawingContext) -> Bool {
        guard let inPlace = inPlaceTiles(coords, of: range, tiles: tiles, coversOutput: neighbours == nil) else {
            return false
        }
        let cellWidth = inPlace.cellWidth, cellHeight = inPlace.cellHeight
        context.save()
        if let neighbours {
            clipToBlock(range, inPlace.placement, cellWidth: cellWidth, cellHeight: cellHeight, neighbours, context)
        }
        if let slab = inPlace.slab, let whole = try? slab.image.privateView() {
            // Decoded in place: one paint of the slab, in bands on all cores, draws every tile.
            context.draw(whole, x: inPlace.left, y: inPlace.top, scale: 1, alpha: paintAlpha, padEdges: false)
        } else {
            for (image, x, y) in inPlace.cells {
                context.draw(image, x: inPlace.left + Double(x), y: inPlace.top + Double(y), scale: 1, alpha: paintAlpha,
                             padEdges: false)
            }
        }
        context.restore()
        return true
    }

    /// Tiles that land on whole device pixels at their own resolution (no resampling), each
    /// filling its cell exactly.
    private struct InPlaceTiles {
        let placement: MosaicPlacement
        let cellWidth: Int, cellHeight: Int
        /// The device position of the range's top-left corner, whole pixels.
        let left: Double, top: Double
        /// Each tile and its cell's top-left corner, relative to the range's.
        let cells: [(image: RasterImage, x: Int, y: Int)]
        /// The slab the tiles were decoded into, when it is exactly these tiles laid out.
        let slab: TileSlab?
    }

    /// The tiles `coords` of `range` when they land on whole device pixels at their own
    /// resolution and every tile fills its cell exactly; with `coversOutput`, only when the
    /// range covers the whole output too (so the padded edges of its mosaic would not show).
    /// Nil in every other case.
    private func inPlaceTiles(_ coords: [TileCoord], of range: TileRange, tiles: [TileCoord: ResolvedTile],
                              coversOutput: Bool) -> InPlaceTiles? {
        let (cellWidth, cellHeight) = cellSize
        guard let placement = alignedPlacement(of: range, coversOutput: coversOutput) else { return nil }
        let cells = cells(coords, of: range, tiles: tiles)
        guard cells.allSatisfy({ $0.image.width == cellWidth && $0.image.height == cellHeight }) else { return nil }
        let slab = TileSlab.laidOut(cells, width: range.columns.count * cellWidth, height: range.rows.count * cellHeight)
        return InPlaceTiles(placement: placement, cellWidth: cellWidth, cellHeight: cellHeight,
                            left: placement.corner.x.rounded(), top: placement.corner.y.rounded(), cells: cells, slab: slab)
    }

    /// Pixels of one grid cell in the layer's mosaics (tile size × pixel ratio).
    private var cellSize: (width: Int, height: Int) {
        (plan.matrix.tileWidth * plan.pixelRatio, plan.matrix.tileHeight * plan.pixelRatio)
    }

    /// The tiles found for `coords`, each with its cell's top-left corner in a mosaic of `range`
    /// without margins.
    private func cells(_ coords: [TileCoord], of range: TileRange,
                       tiles: [TileCoord: ResolvedTile]) -> [(image: RasterImage, x: Int, y: Int)] {
        let (cellWidth, cellHeight) = cellSize
        return coords.compactMap { coord in
            tiles[plan.matrix.wrapped(coord)]?.image.map {
                (image: $0, x: (coord.x - range.columns.lowerBound) * cellWidth, y: (coord.y - range.rows.lowerBound) * cellHeight)
            }
        }
    }

    /// Where the cells of `range` land, when that is on whole device pixels at their own
    /// resolution; with `coversOutput`, only when they cover the whole output too.
    private func alignedPlacement(of range: TileRange, coversOutput: Bool) -> MosaicPlacement? {
        let (cellWidth, cellHeight) = cellSize
        let placement = MosaicPlacement(plan: plan, viewport: viewport, range: range, cellWidth: cellWidth, margins: .init())
        guard placement.isAligned else { return nil }
        if coversOutput {
            let right = placement.corner.x + Double(range.columns.count * cellWidth)
            let bottom = placement.corner.y + Double(range.rows.count * cellHeight)
            guard placement.corner.x < 1e-6, placement.corner.y < 1e-6, right > Double(viewport.deviceWidth) - 1e-6,
                  bottom > Double(viewport.deviceHeight) - 1e-6 else { return nil }
        }
        return placement
    }

    /// The map as this layer's tiles show it, when that is their slab with nothing to draw
    /// (`resolved` is the layer's only block, every one of its tiles is there, no fill, no
    /// stand-ins, decoded into one slab covering the output, on whole device pixels): a view of
    /// the slab's pixels, which nothing may write into (the store keeps them as tiles). Nil in
    /// every other case. Only for a layer the map may be (see `mapMayBe`).
    func tilesAsMap(_ resolved: ResolvedBlock, block: TileBlock) throws(CairoError) -> RasterImage? {
        guard !plan.isBlocked, resolved.parentLevel.isEmpty, resolved.withChildren.isEmpty,
              block.tiles.allSatisfy({ resolved.tiles[plan.matrix.wrapped($0)]?.image != nil }) else { return nil }
        let width = viewport.deviceWidth, height = viewport.deviceHeight
        if let inPlace = inPlaceTiles(block.tiles, of: block.range, tiles: resolved.tiles, coversOutput: true),
           let slab = inPlace.slab {
            return try slab.image.cellView(x: Int(-inPlace.left), y: Int(-inPlace.top), width: width,
                                           height: height, slab: nil)
        }
        return nil
    }

    /// True when the map, with this layer drawn alone on it from `block`, its only block, on a
    /// transparent background, may be the block's slab (see `tilesAsMap`): an opaque
    /// source-over layer at opacity 1 with one level, inside whose area (grid extent and bounds)
    /// the output lies, whose tiles land on whole device pixels at their own resolution.
    func mapMayBe(_ block: TileBlock) -> Bool {
        guard !usesGroup, plan.passes.count == 1, plan.passes[0].alpha >= 1,
              alignedPlacement(of: block.range, coversOutput: true) != nil else { return false }
        return areaCoversOutput
    }

    /// True when one rectangle of the layer's area (grid extent and bounds) covers the output.
    private var areaCoversOutput: Bool {
        let output = (right: Double(viewport.deviceWidth), bottom: Double(viewport.deviceHeight))
        return layerArea().contains { area in
            let topLeft = viewport.devicePoint(x: area.minX, y: area.maxY)
            let bottomRight = viewport.devicePoint(x: area.maxX, y: area.minY)
            return topLeft.x <= 0 && topLeft.y <= 0 && bottomRight.x >= output.right && bottomRight.y >= output.bottom
        }
    }

    /// A mosaic of the stand-in tiles `coords` (one level) drawn only over `cells`, which must
    /// lie within those tiles (the mosaic's padded edges must not spread past them). Tiles of
    /// `tiles` next to them are in the mosaic too: a block's stand-ins then blend at their
    /// edges with those a neighbouring strip handed over, as one block's stand-ins blend.
    private func drawStandIns(_ coords: [TileCoord], from tiles: [TileCoord: ResolvedTile], over cells: [TileCoord],
                              on context: DrawingContext) throws(CairoError) {
        guard let level = coords.first?.z else { return }
        let matrix = plan.matrix
        let own = Set(coords)
        let around = Set(coords.flatMap { coord in
            (-1...1).flatMap { dy in (-1...1).map { dx in TileCoord(z: level, x: coord.x + dx, y: coord.y + dy) } }
        }).filter { !own.contains($0) && tiles[matrix.wrapped($0)]?.image != nil }
        let coords = coords + around
        let range = TileRange(level: level, columns: coords.map(\.x).min()!...coords.map(\.x).max()!,
                              rows: coords.map(\.y).min()!...coords.map(\.y).max()!)
        let mosaic = try TileMosaic(range: range, coords: coords, cellWidth: cellSize.width, cellHeight: cellSize.height,
                                    concurrently: context.drawsConcurrently) { coord in
            tiles[matrix.wrapped(coord)]?.image
        }
        // The cells' clip keeps it within the block: a block's own clip, whose outer edges are
        // not on whole pixels, would cut the cells' edges there where one block's would not.
        draw(mosaic, neighbours: nil, cells: cells, on: context)
    }

    /// The `missing` fill in `cells`.
    private func drawMissingFill(_ cells: [TileCoord], on context: DrawingContext) {
        switch plan.layer.spec.missing {
        case .transparent:
            return
        case .color(let color):
            context.save()
            clip(to: cells, context)
            context.paint(color)
            context.restore()
        case .image(let image, _):
            for cell in cells {
                let extent = plan.matrix.tileExtent(level: cell.z, column: cell.x, row: cell.y)
                let corner = viewport.devicePoint(x: extent.minX, y: extent.maxY)
                let scale = extent.width / viewport.resolution / Double(image.width)
                context.save()
                clip(to: [cell], context)
                context.draw(image, x: corner.x, y: corner.y, scale: scale, padEdges: true,
                             resampling: plan.layer.spec.resampling)
                context.restore()
            }
        }
    }

    /// Draws `mosaic`. A block of a layer drawn in several blocks paints only inside its own
    /// cells, with the edges it shares with other blocks rounded to whole device pixels, so
    /// neighbouring blocks meet exactly; its outer edges stay where a single mosaic's would.
    /// With `cells`, it paints only inside those tiles (of the block's level); with `rows`,
    /// only on those device rows.
    func draw(_ mosaic: TileMosaic, neighbours: TileBlock.Sides?, cells: [TileCoord]?, rows: Range<Int>? = nil,
              on context: DrawingContext) {
        let placement = MosaicPlacement(plan: plan, viewport: viewport, range: mosaic.range, cellWidth: mosaic.cellWidth,
                                        margins: mosaic.margins)
        context.save()
        if let neighbours {
            clipToBlock(mosaic.range, placement, cellWidth: mosaic.cellWidth, cellHeight: mosaic.cellHeight, neighbours, context)
        }
        if let cells { clip(to: cells, context) }
        if let rows {
            clipToRectangle(left: -.infinity, top: Double(rows.lowerBound), right: .infinity,
                            bottom: Double(rows.upperBound), context)
        }
        context.draw(mosaic.image, x: placement.imageOrigin.x, y: placement.imageOrigin.y, scale: placement.scale,
                     alpha: paintAlpha, padEdges: true, resampling: plan.layer.spec.resampling)
        context.restore()
    }

    /// Clips to every pixel `block` may paint: its cells, the edges it shares with neighbouring
    /// blocks rounded as its mosaic's clip has them, its outer edges rounded outwards (the
    /// layer's own clip cuts there).
    private func clipToBlockArea(_ block: TileBlock, _ context: DrawingContext) {
        let (cellWidth, cellHeight) = cellSize
        let placement = MosaicPlacement(plan: plan, viewport: viewport, range: block.range, cellWidth: cellWidth,
                                        margins: .init())
        clipToBlock(block.range, placement, cellWidth: cellWidth, cellHeight: cellHeight, block.neighbours, context,
                    outerEdgesRoundedOut: true)
    }

    /// Clips to the cells of `range` placed by `placement`, the edges shared with neighbouring
    /// blocks rounded to whole device pixels; with `outerEdgesRoundedOut`, the others rounded
    /// outwards to whole pixels too.
    private func clipToBlock(_ range: TileRange, _ placement: MosaicPlacement, cellWidth: Int, cellHeight: Int,
                             _ neighbours: TileBlock.Sides, _ context: DrawingContext, outerEdgesRoundedOut: Bool = false) {
        let corner = placement.corner
        let right = corner.x + Double(range.columns.count * cellWidth) * placement.scale
        let bottom = corner.y + Double(range.rows.count * cellHeight) * placement.scale
        func snap(_ value: Double, _ shared: Bool, outwards: (Double) -> Double) -> Double {
            shared ? value.rounded() : outerEdgesRoundedOut ? outwards(value) : value
        }
        clipToRectangle(left: snap(corner.x, neighbours.left, outwards: floor),
                        top: snap(corner.y, neighbours.top, outwards: floor),
                        right: snap(right, neighbours.right, outwards: ceil),
                        bottom: snap(bottom, neighbours.bottom, outwards: ceil), context)
    }

    /// Clips to a rectangle of device space, cut to the output (see `cutToOutput`); to nothing
    /// when none of it lies there.
    private func clipToRectangle(left: Double, top: Double, right: Double, bottom: Double, _ context: DrawingContext) {
        let rect = Self.cutToOutput(left: left, top: top, right: right, bottom: bottom, viewport: viewport)
        context.newPath()
        if let rect { context.rectangle(rect.left, rect.top, rect.right - rect.left, rect.bottom - rect.top) }
        context.clip()
    }

    /// Clips to the union of `cells` (tiles of the plan's grid), their edges rounded to whole
    /// device pixels: cells filled from different levels then meet without a seam, each pixel
    /// painted by one of them, never half by each.
    private func clip(to cells: [TileCoord], _ context: DrawingContext) {
        context.newPath()
        for cell in cells {
            addRectangle(plan.matrix.tileExtent(level: cell.z, column: cell.x, row: cell.y), snapped: true, context)
        }
        context.clip()
    }

    /// Clips to the layer's grid extent at its level, intersected with its bounds, in every
    /// copy of the world the output shows (only one for grids that do not wrap).
    private func clipToLayerArea(_ context: DrawingContext) {
        context.newPath()
        for area in layerArea() { addRectangle(area, snapped: false, context) }
        context.clip()
    }

    /// Where the layer may paint: its grid's extent at its level intersected with its bounds,
    /// once for each copy of the world the output shows (once for grids that do not wrap).
    private func layerArea() -> [MetersRect] {
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
        return copies.map { area.shifted(x: Double($0) * world) }
    }

    /// Adds `area` to the current path as a device rectangle cut to the output, its edges
    /// rounded to whole device pixels when `snapped`.
    private func addRectangle(_ area: MetersRect, snapped: Bool, _ context: DrawingContext) {
        let topLeft = viewport.devicePoint(x: area.minX, y: area.maxY)
        let bottomRight = viewport.devicePoint(x: area.maxX, y: area.minY)
        func edge(_ value: Double) -> Double { snapped ? value.rounded() : value }
        if let rect = Self.cutToOutput(left: edge(topLeft.x), top: edge(topLeft.y), right: edge(bottomRight.x),
                                       bottom: edge(bottomRight.y), viewport: viewport) {
            context.rectangle(rect.left, rect.top, rect.right - rect.left, rect.bottom - rect.top)
        }
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
