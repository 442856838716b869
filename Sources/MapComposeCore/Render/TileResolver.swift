import Foundation

/// Decides, for each tile position a layer covers, what to draw there. Today that is the tile
/// of the planned level (scaled when the level lies outside the source's native range); this is
/// where fallback to parents and children, and a second level for crossfades, come in.
struct TileResolver {
    let store: TileStore

    /// Resolves `coords` (unwrapped) of `plan`, each distinct wrapped tile once, keyed by the
    /// wrapped coordinate.
    func resolve(_ coords: [TileCoord], for plan: LayerPlan) async -> [TileCoord: ResolvedTile] {
        var unique: [TileCoord] = []
        var seen: Set<TileCoord> = []
        for coord in coords {
            let wrapped = TileCoord(z: coord.z, x: plan.matrix.wrappedColumn(coord.x, level: coord.z), y: coord.y)
            if seen.insert(wrapped).inserted { unique.append(wrapped) }
        }
        let source = plan.layer.source, ratio = plan.pixelRatio, status = plan.status
        return await withTaskGroup(of: ResolvedTile.self) { group in
            // The store bounds how many fetches run at once, across layers and renders.
            for coord in unique {
                group.addTask { [store] in
                    let tile = await store.tile(coord, pixelRatio: ratio, from: source)
                    let drawn: TileStatus
                    if case .image = tile.content { drawn = status } else { drawn = .missing }
                    return ResolvedTile(coord: coord, content: tile.content, origin: tile.origin, status: drawn,
                                        provenance: tile.provenance)
                }
            }
            var results: [TileCoord: ResolvedTile] = [:]
            for await tile in group { results[tile.coord] = tile }
            return results
        }
    }
}
