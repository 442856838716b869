import Foundation

/// What one layer needs for a viewport: skipped (and why), or the grid level, pixel ratio,
/// blocks of covering tiles and clip bounds to draw it with.
struct LayerPlan: Sendable {
    /// Why a layer is not drawn.
    enum Skip: Sendable, Equatable, CustomStringConvertible {
        case outsideZoomRange(zoom: Double, minzoom: Double, maxzoom: Double)
        case transparent
        case fadedOut(zoom: Double)
        case boundsDisjoint
        case noTileInBounds(level: Int)
        case tooManyTiles(count: Int, level: Int, limit: Int, native: ClosedRange<Int>)

        var description: String {
            switch self {
            case .outsideZoomRange(let z, let min, let max):
                return "zoom \(z.exactText) is outside minzoom \(min.exactText) … maxzoom \(max.exactText)"
            case .transparent:
                return "opacity is 0"
            case .fadedOut(let zoom):
                return "faded out at zoom \(zoom.exactText)"
            case .boundsDisjoint:
                return "layer bounds and source bounds do not overlap"
            case .noTileInBounds(let level):
                return "no tile of level \(level) intersects the layer's bounds here"
            case .tooManyTiles(let count, let level, let limit, let native):
                let shown = count == Int.max ? "more than \(limit)" : "\(count)"
                return "needs \(shown) tiles of level \(level): the output is far coarser than the source's levels "
                    + "\(native.lowerBound)…\(native.upperBound); the limit is \(limit) for this output size"
            }
        }

        /// Skips that point at a problem the user should hear about without `--verbose`.
        var isWarning: Bool {
            if case .tooManyTiles = self { return true }
            return false
        }
    }

    let layer: MapLayer
    let skip: Skip?
    /// The layer's opacity at the render zoom (its fade applied).
    let opacity: Double
    /// The levels the source has (the layer's `native`, else the source's own).
    let native: ClosedRange<Int>
    /// The levels drawn, coarsest first: one, or two for a crossfade.
    let passes: [LevelPass]
    /// Pixel ratio tiles are asked at (above 1 only for sources that draw their own tiles).
    let pixelRatio: Int
    /// Layer bounds intersected with the source's, in metres; nil for none.
    let bounds: MetersRect?

    /// Most pixels on a side of one mosaic (Cairo's limit is 32767; this keeps blocks small).
    static let maxMosaicSide = 4096
    /// Widest strip of tiles, in pixels: Cairo's limit for an image's side. A strip is one row
    /// of tiles high, so one as wide as this holds less than a block of `maxMosaicSide`.
    static let maxStripWidth = 32767
    /// Fewest tiles any layer may use, whatever the output size.
    static let minTileLimit = 4096

    var matrix: TileMatrix { layer.source.info.matrix }
    /// The finest level drawn.
    var level: Int { passes.last?.level ?? 0 }
    /// True when the layer is drawn in more than one block, so blocks are clipped to their cells.
    var isBlocked: Bool { passes.contains { $0.blocks.count > 1 } }

    /// - Parameters:
    ///   - mosaicSide: most pixels on a side of one block's mosaic.
    ///   - stripWidth: most pixels across one strip.
    ///   - strips: a level whose tiles are resampled onto the map is cut into blocks one row of
    ///     tiles high (see `blocks`).
    init(layer: MapLayer, viewport: Viewport, mosaicSide: Int = LayerPlan.maxMosaicSide,
         stripWidth: Int = LayerPlan.maxStripWidth, strips: Bool = true) {
        self.layer = layer
        let spec = layer.spec, info = layer.source.info, matrix = info.matrix
        let pixelRatio = min(info.maxPixelRatio, max(1, Int(viewport.scale.rounded())))
        let native = (spec.native ?? info.nativeZoom).clamped(to: matrix.levelRange)
        self.pixelRatio = pixelRatio
        self.native = native
        opacity = spec.effectiveOpacity(atZoom: viewport.zoom)
        var geoBounds = spec.bounds ?? info.bounds
        if let a = spec.bounds, let b = info.bounds {
            bounds = a.metersIntersection(b)
            if bounds == nil { geoBounds = nil }
        } else {
            bounds = geoBounds?.meters
        }
        let wanted = viewport.resolution * Double(pixelRatio)
        let levels = spec.crossfade ? Self.crossfadeLevels(for: wanted, matrix: matrix, native: native)
            : [(matrix.level(forResolution: wanted, in: native), 1.0)]
        var passes: [LevelPass] = []
        var skip: Skip?
        if !spec.isVisible(atZoom: viewport.zoom) {
            skip = .outsideZoomRange(zoom: viewport.zoom, minzoom: spec.minzoom, maxzoom: spec.maxzoom)
        } else if opacity == 0 {
            skip = spec.opacity == 0 ? .transparent : .fadedOut(zoom: viewport.zoom)
        } else if spec.bounds != nil, info.bounds != nil, geoBounds == nil {
            skip = .boundsDisjoint
        } else {
            let limit = Self.tileLimit(viewport: viewport, matrix: matrix, pixelRatio: pixelRatio)
            for (level, alpha) in levels {
                guard let range = matrix.covering(viewport.extent, level: level) else { continue }
                if range.count > limit {
                    skip = .tooManyTiles(count: range.count, level: level, limit: limit, native: native)
                    break
                }
                let resampled = abs(matrix.levels[level].resolution / Double(pixelRatio) / viewport.resolution - 1) > 1e-9
                let (blocks, outside) = Self.blocks(of: range, matrix: matrix, pixelRatio: pixelRatio, bounds: bounds,
                                                    mosaicSide: mosaicSide, stripWidth: stripWidth,
                                                    strips: strips && resampled)
                if !blocks.isEmpty {
                    passes.append(LevelPass(level: level, alpha: alpha,
                                            status: Self.status(of: level, for: wanted, matrix: matrix),
                                            blocks: blocks, outsideBounds: outside))
                }
            }
            if skip == nil, passes.isEmpty { skip = .noTileInBounds(level: levels.last?.0 ?? 0) }
        }
        self.skip = skip
        self.passes = skip == nil ? passes : []
    }

    /// How `level` relates to an output of `wanted` metres per pixel.
    static func status(of level: Int, for wanted: Double, matrix: TileMatrix) -> TileStatus {
        if matrix.levels[level].resolution > wanted * TileMatrix.stretchFactor { return .overzoomed }
        if level > matrix.level(forResolution: wanted) { return .underzoomed }
        return .exact
    }

    /// The two levels around `wanted` metres per pixel within `native`, coarser first, each with
    /// the alpha it is drawn at: the coarser at 1, the finer at its weight, which grows with
    /// the log of the resolution from 0 at the coarser level to 1 at the finer (frac(z) on a
    /// halving grid). One level when the output is outside `native` or on a level.
    static func crossfadeLevels(for wanted: Double, matrix: TileMatrix, native: ClosedRange<Int>) -> [(Int, Double)] {
        guard let coarser = native.last(where: { matrix.levels[$0].resolution >= wanted * (1 - 1e-9) }) else {
            return [(native.lowerBound, 1)]
        }
        guard coarser < native.upperBound else { return [(coarser, 1)] }
        let a = matrix.levels[coarser].resolution, b = matrix.levels[coarser + 1].resolution
        let weight = log(a / wanted) / log(a / b)
        if weight < 1e-6 { return [(coarser, 1)] }
        if weight > 1 - 1e-6 { return [(coarser + 1, 1)] }
        return [(coarser, 1), (coarser + 1, weight)]
    }

    /// Most tiles a layer may use: four times what covers the output at its own resolution
    /// (room for a source whose levels start one level finer), and never fewer than 4096.
    static func tileLimit(viewport: Viewport, matrix: TileMatrix, pixelRatio: Int) -> Int {
        let across = viewport.deviceWidth / (matrix.tileWidth * pixelRatio) + 2
        let down = viewport.deviceHeight / (matrix.tileHeight * pixelRatio) + 2
        return max(minTileLimit, 4 * across * down)
    }

    /// `range` cut into blocks of at most `mosaicSide` pixels, keeping the tiles that reach
    /// into `bounds` (in any copy of the world, for grids that wrap). With `strips`, a range of at
    /// most `stripWidth` pixels across is cut into blocks one row of tiles high: a layer is then
    /// read, decoded and drawn a strip at a time, a few strips ahead, so the memory it takes is
    /// a few strips' whatever the size of the map, and memory released by one strip is filled
    /// again by the next; and strips take their edge tiles from each other, so no tile is read
    /// twice. (For tiles drawn on whole pixels at their own size, one block serves
    /// better: drawn in place, its slab may be the map itself.)
    static func blocks(of range: TileRange, matrix: TileMatrix, pixelRatio: Int, bounds: MetersRect?,
                       mosaicSide: Int, stripWidth: Int = maxStripWidth,
                       strips: Bool = false) -> (blocks: [TileBlock], outsideBounds: [TileCoord]) {
        let level = range.level
        let world = 2 * WebMercator.originShift
        let copies: [Double] = matrix.wrapsAroundWorld(level: level) ? [-world, 0, world] : [0]
        // Tiles that only touch the bounds (within rounding of the grid's arithmetic) are not wanted.
        let inset = bounds.map { b -> MetersRect in
            let e = 1e-6 * max(matrix.tileSpanX(level: level), matrix.tileSpanY(level: level))
            return MetersRect(minX: b.minX + e, minY: b.minY + e, maxX: b.maxX - e, maxY: b.maxY - e)
        }
        func wanted(_ coord: TileCoord) -> Bool {
            guard let inset else { return true }
            let extent = matrix.tileExtent(level: level, column: coord.x, row: coord.y)
            return copies.contains { extent.intersection(inset.shifted(x: $0)) != nil }
        }
        let columns = max(1, mosaicSide / (matrix.tileWidth * pixelRatio))
        // Blocks as wide as the range take their ring from the blocks above and below (a block
        // among others on its row has its ring read from the store). Strips may be wider than a
        // block.
        let widest = strips ? max(columns, stripWidth / (matrix.tileWidth * pixelRatio)) : columns
        let fullWidth = widest >= range.columns.count
        let rows = strips && fullWidth ? 1 : max(1, mosaicSide / (matrix.tileHeight * pixelRatio))
        let parts = range.blocks(columns: fullWidth ? range.columns.count : columns, rows: rows)
        var outside: [TileCoord] = []
        let blocks = parts.compactMap { part -> TileBlock? in
            let all = part.tiles
            let tiles = all.filter(wanted)
            if tiles.count < all.count { outside += all.filter { !wanted($0) } }
            guard !tiles.isEmpty else { return nil }
            guard parts.count > 1 else { return TileBlock(range: part, tiles: tiles, ring: [], neighbours: .init()) }
            let ring = part.ring(within: range).filter(wanted)
            let neighbours = TileBlock.Sides(left: part.columns.lowerBound > range.columns.lowerBound,
                                             top: part.rows.lowerBound > range.rows.lowerBound,
                                             right: part.columns.upperBound < range.columns.upperBound,
                                             bottom: part.rows.upperBound < range.rows.upperBound)
            var block = TileBlock(range: part, tiles: tiles, ring: ring, neighbours: neighbours)
            block.ringFromStrips = fullWidth && parts.count > 1
            return block
        }
        return (blocks, outside)
    }

    /// A report for this layer before any tile is fetched.
    var emptyReport: LayerReport {
        let spec = layer.spec
        return LayerReport(id: spec.id, source: spec.source.typeName, grid: matrix.identity, visible: skip == nil,
                           skipped: skip?.description, level: skip == nil ? level : nil,
                           levels: passes.map(\.level), crossfadeWeight: passes.count > 1 ? passes[1].alpha : nil,
                           nativeLevels: [native.lowerBound, native.upperBound], opacity: opacity,
                           blend: spec.blend.rawValue, tilesRequested: 0, tilesDrawn: 0, tilesMissing: 0, tilesAbsent: 0,
                           tilesFromParents: 0, tilesFromChildren: 0, tilesOutsideBounds: 0, tiles: [],
                           sourceNotes: layer.source.info.notes.isEmpty ? nil : layer.source.info.notes)
    }
}
