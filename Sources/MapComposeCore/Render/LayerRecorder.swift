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

    /// A warning per unusable tile; one per answer for tiles a server did not serve, and one
    /// per cause for tiles that could not be had (a host that failed, a timeout), each naming
    /// the first tile and URL; and one summary when tiles are absent.
    func diagnostics(layer: String, level: Int) -> [RenderDiagnostic] {
        let sorted = tiles.values.sorted { ($0.coord.y, $0.coord.x) < ($1.coord.y, $1.coord.x) }
        var result: [RenderDiagnostic] = []
        // Keyed by the reason's words: the same answer or failure, whichever tile had it.
        var grouped: [String: [Outcome]] = [:], order: [(key: String, reason: TileMissReason)] = []
        for tile in sorted {
            guard let reason = tile.miss else { continue }
            switch reason {
            case .notServed, .readFailed:
                let key = "\(reason.isDefinite) \(reason)"
                if grouped[key] == nil { order.append((key, reason)) }
                grouped[key, default: []].append(tile)
            default:
                if reason.isProblem {
                    result.append(.tileProblem(layer: layer, tile: tile.coord, origin: tile.origin ?? "", reason: reason))
                }
            }
        }
        let asked = sorted.filter { $0.status != .outsideBounds }
        for (key, reason) in order {
            let tiles = grouped[key]!
            let first = tiles[0]
            if case .notServed(let detail) = reason {
                result.append(.tileNotServed(layer: layer, tile: first.coord, origin: first.origin ?? "", detail: detail,
                                             count: tiles.count, of: asked.count, level: level))
            } else {
                result.append(.tileProblem(layer: layer, tile: first.coord, origin: first.origin ?? "", reason: reason,
                                           count: tiles.count, of: asked.count, level: level))
            }
        }
        let absent = asked.filter { $0.miss == .absent }
        if !absent.isEmpty {
            result.append(.tilesAbsent(layer: layer, count: absent.count, of: asked.count, level: level,
                                       standIns: absent.count { $0.status == .parent || $0.status == .children }))
        }
        return result
    }
}
