import Foundation

/// What one layer needs for a viewport: skipped (and why), or the grid level, pixel ratio,
/// blocks of covering tiles and clip bounds to draw it with.
struct LayerPlan: Sendable {
    /// Why a layer is not drawn.
    enum Skip: Sendable, Equatable, CustomStringConvertible {
        case outsideZoomRange(zoom: Double, minzoom: Double, maxzoom: Double)
        case transparent
        case boundsDisjoint
        case noTileInBounds(level: Int)
        case tooManyTiles(count: Int, level: Int, limit: Int, native: ClosedRange<Int>)

        var description: String {
            switch self {
            case .outsideZoomRange(let z, let min, let max):
                return "zoom \(z.exactText) is outside minzoom \(min.exactText) … maxzoom \(max.exactText)"
            case .transparent:
                return "opacity is 0"
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
    /// The grid level drawn.
    let level: Int
    /// How the level relates to the output's resolution.
    let status: TileStatus
    /// Pixel ratio tiles are asked at (above 1 only for sources that draw their own tiles).
    let pixelRatio: Int
    /// The covering tiles in blocks that each fit one mosaic.
    let blocks: [TileBlock]
    /// Layer bounds intersected with the source's, in metres; nil for none.
    let bounds: MetersRect?

    /// Most pixels on a side of one mosaic (Cairo's limit is 32767; this keeps blocks small).
    static let maxMosaicSide = 4096
    /// Fewest tiles any layer may use, whatever the output size.
    static let minTileLimit = 4096

    var matrix: TileMatrix { layer.source.info.matrix }

    /// - Parameter mosaicSide: most pixels on a side of one block's mosaic.
    init(layer: MapLayer, viewport: Viewport, mosaicSide: Int = LayerPlan.maxMosaicSide) {
        self.layer = layer
        let spec = layer.spec, info = layer.source.info, matrix = info.matrix
        let pixelRatio = info.drawsAtAnyPixelRatio ? max(1, Int(viewport.scale.rounded())) : 1
        let wanted = viewport.resolution * Double(pixelRatio)
        let ideal = matrix.level(forResolution: wanted)
        let level = matrix.level(forResolution: wanted, in: info.nativeZoom)
        self.pixelRatio = pixelRatio
        self.level = level
        if matrix.levels[level].resolution > wanted * TileMatrix.stretchFactor {
            status = .overzoomed
        } else if level > ideal {
            status = .underzoomed
        } else {
            status = .exact
        }
        var geoBounds = spec.bounds ?? info.bounds
        if let a = spec.bounds, let b = info.bounds { geoBounds = a.intersection(b) }
        bounds = geoBounds?.meters
        var blocks: [TileBlock] = []
        var skip: Skip?
        if !spec.isVisible(atZoom: viewport.zoom) {
            skip = .outsideZoomRange(zoom: viewport.zoom, minzoom: spec.minzoom, maxzoom: spec.maxzoom)
        } else if spec.opacity == 0 {
            skip = .transparent
        } else if spec.bounds != nil, info.bounds != nil, geoBounds == nil {
            skip = .boundsDisjoint
        } else if let range = matrix.covering(viewport.extent, level: level) {
            let limit = Self.tileLimit(viewport: viewport, matrix: matrix, pixelRatio: pixelRatio)
            if range.count > limit {
                skip = .tooManyTiles(count: range.count, level: level, limit: limit, native: info.nativeZoom)
            } else {
                blocks = Self.blocks(of: range, matrix: matrix, pixelRatio: pixelRatio, bounds: bounds, mosaicSide: mosaicSide)
                if blocks.isEmpty { skip = .noTileInBounds(level: level) }
            }
        } else {
            skip = .noTileInBounds(level: level)
        }
        self.skip = skip
        self.blocks = blocks
    }

    /// Most tiles a layer may use: four times what covers the output at its own resolution
    /// (room for a source whose levels start one level finer), and never fewer than 4096.
    static func tileLimit(viewport: Viewport, matrix: TileMatrix, pixelRatio: Int) -> Int {
        let across = viewport.deviceWidth / (matrix.tileWidth * pixelRatio) + 2
        let down = viewport.deviceHeight / (matrix.tileHeight * pixelRatio) + 2
        return max(minTileLimit, 4 * across * down)
    }

    /// `range` cut into blocks of at most `mosaicSide` pixels, keeping the tiles that reach
    /// into `bounds` (in any copy of the world, for grids that wrap).
    static func blocks(of range: TileRange, matrix: TileMatrix, pixelRatio: Int, bounds: MetersRect?,
                       mosaicSide: Int) -> [TileBlock] {
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
        let rows = max(1, mosaicSide / (matrix.tileHeight * pixelRatio))
        let parts = range.blocks(columns: columns, rows: rows)
        return parts.compactMap { part in
            let tiles = part.tiles.filter(wanted)
            guard !tiles.isEmpty else { return nil }
            guard parts.count > 1 else { return TileBlock(range: part, tiles: tiles, ring: [], neighbours: .init()) }
            let ring = part.ring(within: range).filter(wanted)
            let neighbours = TileBlock.Sides(left: part.columns.lowerBound > range.columns.lowerBound,
                                             top: part.rows.lowerBound > range.rows.lowerBound,
                                             right: part.columns.upperBound < range.columns.upperBound,
                                             bottom: part.rows.upperBound < range.rows.upperBound)
            return TileBlock(range: part, tiles: tiles, ring: ring, neighbours: neighbours)
        }
    }

    /// A report for this layer before any tile is fetched.
    var emptyReport: LayerReport {
        let spec = layer.spec, native = layer.source.info.nativeZoom
        return LayerReport(id: spec.id, source: spec.source.typeName, grid: matrix.identity, visible: skip == nil,
                           skipped: skip?.description, level: skip == nil ? level : nil,
                           nativeLevels: [native.lowerBound, native.upperBound], opacity: spec.opacity,
                           blend: spec.blend.rawValue, tilesRequested: 0, tilesDrawn: 0, tilesMissing: 0, tilesAbsent: 0,
                           tiles: [])
    }
}
