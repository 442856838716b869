import Foundation

/// Collects what happened to one layer's tiles across its blocks: each wrapped tile once,
/// for the report and its diagnostics. It keeps only what the report says of each tile, never
/// the pixels, so a render's memory does not grow with its number of layers.
struct LayerRecorder {
    /// What the report says of one tile.
    private struct Outcome {
        let coord: TileCoord
        let status: TileStatus
        let origin: String?
        let miss: TileMissReason?
        let fallbackLevel: Int?
    }

    let plan: LayerPlan
    private var tiles: [TileCoord: Outcome] = [:]

    init(plan: LayerPlan) {
        self.plan = plan
    }

    /// Records the tiles of `coords` (unwrapped) found in `resolved` (keyed by wrapped coordinate).
    mutating func record(_ coords: [TileCoord], from resolved: [TileCoord: ResolvedTile]) {
        for coord in coords {
            let wrapped = plan.matrix.wrapped(coord)
            guard tiles[wrapped] == nil, let tile = resolved[wrapped] else { continue }
            var miss: TileMissReason?
            if case .missing(let reason) = tile.content { miss = reason }
            tiles[wrapped] = Outcome(coord: wrapped, status: tile.status, origin: tile.origin, miss: miss,
                                     fallbackLevel: tile.fallbackLevel)
        }
    }

    /// Records tiles left out because they lie outside the layer's bounds.
    mutating func record(outsideBounds coords: [TileCoord]) {
        for coord in coords {
            let wrapped = plan.matrix.wrapped(coord)
            if tiles[wrapped] == nil {
                tiles[wrapped] = Outcome(coord: wrapped, status: .outsideBounds, origin: nil, miss: nil, fallbackLevel: nil)
            }
        }
    }

    /// Fills the counts and the sorted tile list of `report`.
    func fill(_ report: inout LayerReport) {
        let sorted = tiles.values.sorted { ($0.coord.z, $0.coord.y, $0.coord.x) < ($1.coord.z, $1.coord.y, $1.coord.x) }
        report.tiles = sorted.map { tile in
            TileReport(level: tile.coord.z, column: tile.coord.x, row: tile.coord.y, status: tile.status,
                       origin: tile.origin, reason: tile.miss?.description, fallbackLevel: tile.fallbackLevel)
        }
        report.tilesOutsideBounds = sorted.count { $0.status == .outsideBounds }
        report.tilesRequested = sorted.count - report.tilesOutsideBounds
        report.tilesMissing = sorted.count { $0.miss != nil }
        report.tilesDrawn = report.tilesRequested - report.tilesMissing
        report.tilesAbsent = sorted.count { $0.miss == .absent }
        report.tilesFromParents = sorted.count { $0.status == .parent }
        report.tilesFromChildren = sorted.count { $0.status == .children }
    }

    /// A warning per unusable tile, and one summary when tiles are absent.
    func diagnostics(layer: String, level: Int) -> [RenderDiagnostic] {
        let sorted = tiles.values.sorted { ($0.coord.y, $0.coord.x) < ($1.coord.y, $1.coord.x) }
        var result: [RenderDiagnostic] = []
        var notServed: [String: [Outcome]] = [:], order: [String] = []
        for tile in sorted {
            if case .notServed(let detail)? = tile.miss {
                if notServed[detail] == nil { order.append(detail) }
                notServed[detail, default: []].append(tile)
            } else if let reason = tile.miss, reason.isProblem {
                result.append(.tileProblem(layer: layer, tile: tile.coord, origin: tile.origin ?? "", reason: reason))
            }
        }
        let asked = sorted.filter { $0.status != .outsideBounds }
        // Tiles a server did not serve, one warning per answer, naming the first tile and URL.
        for detail in order {
            let tiles = notServed[detail]!
            result.append(.tileNotServed(layer: layer, tile: tiles[0].coord, origin: tiles[0].origin ?? "", detail: detail,
                                         count: tiles.count, of: asked.count, level: level))
        }
        let absent = asked.filter { $0.miss == .absent }
        if !absent.isEmpty {
            result.append(.tilesAbsent(layer: layer, count: absent.count, of: asked.count, level: level,
                                       standIns: absent.count { $0.status == .parent || $0.status == .children }))
        }
        return result
    }
}
