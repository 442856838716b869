import Foundation

/// Collects what happened to one layer's tiles across its blocks: each wrapped tile once,
/// for the report and its diagnostics.
struct LayerRecorder {
    let plan: LayerPlan
    private var tiles: [TileCoord: ResolvedTile] = [:]

    init(plan: LayerPlan) {
        self.plan = plan
    }

    /// Records the tiles of `coords` (unwrapped) found in `resolved` (keyed by wrapped coordinate).
    mutating func record(_ coords: [TileCoord], from resolved: [TileCoord: ResolvedTile]) {
        for coord in coords {
            let wrapped = TileCoord(z: coord.z, x: plan.matrix.wrappedColumn(coord.x, level: coord.z), y: coord.y)
            if tiles[wrapped] == nil, let tile = resolved[wrapped] { tiles[wrapped] = tile }
        }
    }

    /// Fills the counts and the sorted tile list of `report`.
    func fill(_ report: inout LayerReport) {
        let sorted = tiles.values.sorted { ($0.coord.z, $0.coord.y, $0.coord.x) < ($1.coord.z, $1.coord.y, $1.coord.x) }
        report.tiles = sorted.map { tile in
            var reason: String?
            if case .missing(let why) = tile.content { reason = why.description }
            return TileReport(level: tile.coord.z, column: tile.coord.x, row: tile.coord.y, status: tile.status,
                              origin: tile.origin, reason: reason)
        }
        report.tilesRequested = sorted.count
        report.tilesDrawn = sorted.count { $0.image != nil }
        report.tilesMissing = sorted.count - report.tilesDrawn
        report.tilesAbsent = sorted.count { if case .missing(.absent) = $0.content { true } else { false } }
    }

    /// A warning per unusable tile, and one summary when tiles are absent.
    func diagnostics(layer: String, level: Int) -> [RenderDiagnostic] {
        let sorted = tiles.values.sorted { ($0.coord.y, $0.coord.x) < ($1.coord.y, $1.coord.x) }
        var result: [RenderDiagnostic] = []
        for tile in sorted {
            if case .missing(let reason) = tile.content, reason.isProblem {
                result.append(.tileProblem(layer: layer, tile: tile.coord, origin: tile.origin, reason: reason))
            }
        }
        let absent = sorted.count { if case .missing(.absent) = $0.content { true } else { false } }
        if absent > 0 { result.append(.tilesAbsent(layer: layer, count: absent, of: sorted.count, level: level)) }
        return result
    }
}
