import Foundation

/// A rectangle in EPSG:3857 metres (x grows east, y grows north).
public struct MetersRect: Equatable, Sendable, Codable, CustomStringConvertible {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }

    /// The rectangle shifted east by `dx` metres.
    public func shifted(x dx: Double) -> MetersRect {
        MetersRect(minX: minX + dx, minY: minY, maxX: maxX + dx, maxY: maxY)
    }

    /// The overlap of two rectangles; nil when they only touch or are apart.
    public func intersection(_ other: MetersRect) -> MetersRect? {
        let r = MetersRect(minX: max(minX, other.minX), minY: max(minY, other.minY),
                           maxX: min(maxX, other.maxX), maxY: min(maxY, other.maxY))
        return r.minX < r.maxX && r.minY < r.maxY ? r : nil
    }

    /// `minX,minY,maxX,maxY` with every digit a Double holds (for bboxes in requests and reports).
    public var description: String {
        [minX, minY, maxX, maxY].map(\.exactText).joined(separator: ",")
    }
}

/// Why a tile grid definition cannot be used.
public struct TileMatrixError: Error, Equatable, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}

/// A tiling scheme: where the grid starts, how big its tiles are, and per level how many
/// metres one pixel covers and how many tiles there are. The standard Web Mercator grid
/// (256 or 512 px) is one instance; an ArcGIS LOD set or a WMTS tile matrix set is another.
///
/// Columns grow east and rows grow south from `originX`, `originY` (the top-left corner).
/// This is the only place that knows tile sizes, origins and resolutions.
public struct TileMatrix: Sendable, Hashable, CustomStringConvertible {
    /// One zoom level of a grid.
    public struct Level: Sendable, Hashable {
        /// Metres per pixel.
        public let resolution: Double
        /// Tiles across and down.
        public let matrixWidth: Int
        public let matrixHeight: Int

        public init(resolution: Double, matrixWidth: Int, matrixHeight: Int) {
            self.resolution = resolution
            self.matrixWidth = matrixWidth
            self.matrixHeight = matrixHeight
        }
    }

    /// Names the grid in cache keys and reports (e.g. `webmercator-256`).
    public let identity: String
    /// Top-left corner of the grid in EPSG:3857 metres.
    public let originX: Double
    public let originY: Double
    public let tileWidth: Int
    public let tileHeight: Int
    /// Levels by number, coarsest first.
    public let levels: [Level]

    /// Deepest level any grid may have.
    public static let maxLevel = 30
    /// A level up to this much coarser than the output still counts as fine enough
    /// (MapProxy's default stretch factor).
    public static let stretchFactor = 1.15

    /// A grid from explicit values; throws when they cannot describe tiles.
    public init(identity: String, originX: Double, originY: Double, tileWidth: Int, tileHeight: Int,
                levels: [Level]) throws(TileMatrixError) {
        guard originX.isFinite, originY.isFinite else {
            throw TileMatrixError(reason: "grid origin \(originX),\(originY) is not a finite point")
        }
        guard (1...4096).contains(tileWidth), (1...4096).contains(tileHeight) else {
            throw TileMatrixError(reason: "tile size \(tileWidth)x\(tileHeight) is outside 1…4096 pixels")
        }
        guard !levels.isEmpty, levels.count <= Self.maxLevel + 1 else {
            throw TileMatrixError(reason: "a grid needs 1…\(Self.maxLevel + 1) levels, got \(levels.count)")
        }
        for (index, level) in levels.enumerated() {
            guard level.resolution.isFinite, level.resolution > 0 else {
                throw TileMatrixError(reason: "level \(index): resolution \(level.resolution) is not a positive number")
            }
            guard (1...(1 << Self.maxLevel)).contains(level.matrixWidth),
                  (1...(1 << Self.maxLevel)).contains(level.matrixHeight) else {
                throw TileMatrixError(reason: "level \(index): matrix \(level.matrixWidth)x\(level.matrixHeight) is outside 1…2^30 tiles")
            }
            if index > 0, level.resolution >= levels[index - 1].resolution {
                throw TileMatrixError(reason: "level \(index): resolution \(level.resolution) is not finer than level \(index - 1)'s")
            }
        }
        self.identity = identity
        self.originX = originX
        self.originY = originY
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
        self.levels = levels
    }

    /// The standard Web Mercator grid (Google / OSM tiling): square tiles of `tileSize`
    /// pixels, 2^z × 2^z tiles at level z, origin at the top-left of the world.
    public static func webMercator(tileSize: Int = 256) -> TileMatrix {
        if tileSize == 256 { return webMercator256 }
        return makeWebMercator(tileSize: tileSize)
    }

    private static let webMercator256 = makeWebMercator(tileSize: 256)

    private static func makeWebMercator(tileSize: Int) -> TileMatrix {
        let world = 2 * WebMercator.originShift
        let levels = (0...maxLevel).map { z in
            Level(resolution: world / (Double(tileSize) * exp2(Double(z))), matrixWidth: 1 << z, matrixHeight: 1 << z)
        }
        // Values are fixed and valid, so this cannot throw.
        return try! TileMatrix(identity: "webmercator-\(tileSize)", originX: -WebMercator.originShift,
                               originY: WebMercator.originShift, tileWidth: tileSize, tileHeight: tileSize,
                               levels: levels)
    }

    /// Every level number of the grid.
    public var levelRange: ClosedRange<Int> { 0...(levels.count - 1) }

    /// Width of one tile of `level` in metres.
    public func tileSpanX(level: Int) -> Double { Double(tileWidth) * levels[level].resolution }
    /// Height of one tile of `level` in metres.
    public func tileSpanY(level: Int) -> Double { Double(tileHeight) * levels[level].resolution }

    /// The area a tile covers. `column` may lie outside the matrix (a copy of the world east
    /// or west); the result is then shifted accordingly.
    public func tileExtent(level: Int, column: Int, row: Int) -> MetersRect {
        let sx = tileSpanX(level: level), sy = tileSpanY(level: level)
        let minX = originX + Double(column) * sx, maxY = originY - Double(row) * sy
        return MetersRect(minX: minX, minY: maxY - sy, maxX: minX + sx, maxY: maxY)
    }

    /// The area the whole matrix of `level` covers.
    public func matrixExtent(level: Int) -> MetersRect {
        let l = levels[level]
        return MetersRect(minX: originX, minY: originY - Double(l.matrixHeight) * tileSpanY(level: level),
                          maxX: originX + Double(l.matrixWidth) * tileSpanX(level: level), maxY: originY)
    }

    /// True when the columns of `level` span exactly the world's width, so a column past the
    /// east edge is the first column again (longitude wraps).
    public func wrapsAroundWorld(level: Int) -> Bool {
        let span = Double(levels[level].matrixWidth) * tileSpanX(level: level)
        let world = 2 * WebMercator.originShift
        return abs(span - world) < world * 1e-9 && abs(originX + WebMercator.originShift) < world * 1e-9
    }

    /// The level to draw for an output of `resolution` metres per pixel, as MapProxy chooses
    /// it: the finest level not finer than the output as long as it is at most `stretch` times
    /// coarser, else the next finer level; clamped to `range` (the levels a source really has).
    /// On a halving grid this is the coarsest level at least as fine as the output, a level up
    /// to 1.15× coarser counting; where levels lie closer together, an exact level wins over a
    /// coarser one within the stretch.
    public func level(forResolution resolution: Double, in range: ClosedRange<Int>? = nil,
                      stretch: Double = TileMatrix.stretchFactor) -> Int {
        let limits = range.map { $0.clamped(to: levelRange) } ?? levelRange
        guard let first = limits.first(where: { levels[$0].resolution <= resolution * stretch }) else {
            return limits.upperBound
        }
        // Finer levels that are still not finer than the output draw closer to 1:1.
        var chosen = first
        while chosen < limits.upperBound, levels[chosen + 1].resolution >= resolution * (1 - 1e-9) {
            chosen += 1
        }
        return chosen
    }

    /// The block of tiles of `level` that covers `area`, or nil when none does. Rows are limited
    /// to the matrix; columns are too, unless the level wraps around the world, in which case
    /// they may run past either edge (wrap them with `wrappedColumn`). An area needing more
    /// than `limit` tiles is reported by `TileRange.count` without building any list.
    public func covering(_ area: MetersRect, level: Int) -> TileRange? {
        guard area.minX.isFinite, area.maxX.isFinite, area.minY.isFinite, area.maxY.isFinite,
              area.minX < area.maxX, area.minY < area.maxY else { return nil }
        let sx = tileSpanX(level: level), sy = tileSpanY(level: level)
        let l = levels[level]
        // A tolerance far below a pixel keeps rounding noise from adding a sliver column or row.
        let epsilon = 1e-7
        func index(_ value: Double) -> Int? {
            guard value.isFinite, abs(value) < 1e15 else { return nil }
            return Int(value)
        }
        guard var x0 = index(floor((area.minX - originX) / sx + epsilon)),
              var x1 = index(ceil((area.maxX - originX) / sx - epsilon) - 1),
              var y0 = index(floor((originY - area.maxY) / sy + epsilon)),
              var y1 = index(ceil((originY - area.minY) / sy - epsilon) - 1) else { return nil }
        y0 = max(0, y0)
        y1 = min(l.matrixHeight - 1, y1)
        if !wrapsAroundWorld(level: level) {
            x0 = max(0, x0)
            x1 = min(l.matrixWidth - 1, x1)
        }
        guard x1 >= x0, y1 >= y0 else { return nil }
        return TileRange(level: level, columns: x0...x1, rows: y0...y1)
    }

    /// True when every level halves the one above it on the same origin and doubles its
    /// matrix, so each tile has one parent and four children (the XYZ quadtree).
    public var isQuadtree: Bool {
        levels.indices.dropFirst().allSatisfy { i in
            let up = levels[i - 1], here = levels[i]
            return abs(here.resolution * 2 - up.resolution) <= up.resolution * 1e-9
                && here.matrixWidth == up.matrixWidth * 2 && here.matrixHeight == up.matrixHeight * 2
        }
    }

    /// `coord` with its column moved into the matrix when its level wraps around the world.
    public func wrapped(_ coord: TileCoord) -> TileCoord {
        TileCoord(z: coord.z, x: wrappedColumn(coord.x, level: coord.z), y: coord.y)
    }

    /// `column` moved into the matrix when the level wraps around the world.
    public func wrappedColumn(_ column: Int, level: Int) -> Int {
        guard wrapsAroundWorld(level: level) else { return column }
        let n = levels[level].matrixWidth
        return ((column % n) + n) % n
    }

    public var description: String { identity }
}

extension Double {
    /// The shortest text that reads back as exactly this Double (never `%f`-truncated).
    public var exactText: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int(self)) }
        return "\(self)"
    }
}
