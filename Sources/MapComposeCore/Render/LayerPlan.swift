import Foundation

/// What one layer needs for a viewport: skipped (and why), or the tile level, pixel ratio,
/// covering tiles and clip bounds to draw it with.
struct LayerPlan: Sendable {
    let layer: MapLayer
    /// Why the layer is not drawn; nil when it is.
    let skipped: String?
    let level: Int?
    let pixelRatio: Int
    /// Unwrapped tiles covering the output (already limited to `bounds`).
    let covering: [TileCoord]
    /// Layer bounds intersected with the source's.
    let bounds: GeoBounds?
    /// A problem worth a warning (e.g. far too many tiles), if any.
    let problem: String?

    /// Most tiles one layer may request for one render.
    static let maxTiles = 4096

    init(layer: MapLayer, viewport: Viewport) {
        self.layer = layer
        let spec = layer.spec, info = layer.source.info
        let bounds = Self.intersect(spec.bounds, info.bounds)
        let pixelRatio = info.drawsAtAnyPixelRatio ? max(1, Int(viewport.scale.rounded())) : 1
        let level = viewport.tileLevel(in: info.nativeZoom, pixelRatio: pixelRatio)
        self.bounds = bounds
        self.pixelRatio = pixelRatio
        var covering: [TileCoord] = []
        var skipped: String?, problem: String?
        if !spec.isVisible(atZoom: viewport.zoom) {
            skipped = "zoom \(viewport.zoom) is outside minzoom \(spec.minzoom) … maxzoom \(spec.maxzoom)"
        } else if spec.opacity == 0 {
            skipped = "opacity is 0"
        } else if spec.bounds != nil, info.bounds != nil, bounds == nil {
            skipped = "layer bounds and source bounds do not overlap"
        } else if let range = viewport.coveringRange(level: level), range.count > Self.maxTiles {
            skipped = "needs \(range.count) tiles of level \(level) (zoom \(viewport.zoom) is far below the source's "
                + "levels \(info.nativeZoom.lowerBound)…\(info.nativeZoom.upperBound)); the limit is \(Self.maxTiles) per layer"
            problem = "layer '\(spec.id)': skipped: \(skipped!)"
        } else {
            covering = viewport.coveringTiles(level: level)
                .filter { bounds == nil || $0.wrapped.bounds.intersects(bounds!) }
            if covering.isEmpty { skipped = "no tile of level \(level) intersects the layer's bounds here" }
        }
        self.skipped = skipped
        self.problem = problem
        self.covering = covering
        self.level = skipped == nil ? level : nil
    }

    /// A report for this layer before any tile is fetched.
    var emptyReport: LayerReport {
        let spec = layer.spec
        return LayerReport(id: spec.id, source: spec.source.typeName, visible: skipped == nil, skipped: skipped,
                           level: level, opacity: spec.opacity, blend: spec.blend.rawValue,
                           tilesRequested: 0, tilesDrawn: 0, tilesMissing: 0, problems: problem.map { [$0] } ?? [], tiles: [])
    }

    static func intersect(_ a: GeoBounds?, _ b: GeoBounds?) -> GeoBounds? {
        guard let a else { return b }
        guard let b else { return a }
        let result = GeoBounds(west: max(a.west, b.west), south: max(a.south, b.south),
                               east: min(a.east, b.east), north: min(a.north, b.north))
        return result.west < result.east && result.south < result.north ? result : nil
    }
}

extension LayerReport {
    /// Records what happened to each resolved tile; returns how many were decoded.
    mutating func record(_ tiles: [TileCoord: ResolvedTile]) -> Int {
        var decoded = 0
        for tile in tiles.values.sorted(by: { ($0.coord.y, $0.coord.x) < ($1.coord.y, $1.coord.x) }) {
            if tile.decoded { decoded += 1 }
            switch tile.content {
            case .image:
                tilesDrawn += 1
                self.tiles.append(TileReport(tile: tile.coord.description, status: .drawn, origin: tile.origin))
            case .missing(let reason):
                tilesMissing += 1
                self.tiles.append(TileReport(tile: tile.coord.description, status: .missing,
                                             origin: tile.origin, reason: reason.description))
                if reason.isProblem {
                    problems.append("layer '\(id)': tile \(tile.coord) (\(tile.origin)): \(reason)")
                }
            }
        }
        tilesRequested = tiles.count
        return decoded
    }
}
