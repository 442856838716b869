import Foundation

/// The tiles decided on for one block of one level of a layer.
struct ResolvedBlock: Sendable {
    /// The block's tiles and its ring (unless the ring comes from neighbouring strips), keyed
    /// by wrapped coordinate; missing ones carry the fallback that stands in for them in
    /// `status` and `fallbackLevel`.
    var tiles: [TileCoord: ResolvedTile] = [:]
    /// Ancestor tiles found for missing tiles, keyed by wrapped coordinate (of their level).
    var ancestors: [TileCoord: ResolvedTile] = [:]
    /// Descendant tiles found for missing tiles, keyed by wrapped coordinate (of their level).
    var descendants: [TileCoord: ResolvedTile] = [:]
    /// Which ancestor level stands in for each missing block tile (unwrapped coordinate).
    var parentLevel: [TileCoord: Int] = [:]
    /// Which block tiles (unwrapped) have descendants drawn over them.
    var withChildren: Set<TileCoord> = []
}

/// Decides, for each tile position of a block, what to draw there: the tile of the planned
/// level (scaled when that lies outside the source's native levels), or where it is missing,
/// the nearest ancestor up to `fallback.parents` levels up (its sub-square scaled up) under
/// descendants up to `fallback.children` levels down. Everything is asked of the shared store,
/// so an ancestor standing in for four holes is fetched once and a known miss is not asked again.
struct TileResolver {
    let store: TileStore

    func resolve(_ block: TileBlock, level pass: LevelPass, of plan: LayerPlan) async -> ResolvedBlock {
        var result = ResolvedBlock()
        result.tiles = await resolve(block.ringFromStrips ? block.tiles : block.tiles + block.ring, status: pass.status,
                                     of: plan)
        let matrix = plan.matrix, fallback = plan.layer.spec.fallback
        guard matrix.isQuadtree, fallback.parents > 0 || fallback.children > 0 else { return result }
        let missing = block.tiles.filter { result.tiles[matrix.wrapped($0)]?.image == nil }
        guard !missing.isEmpty else { return result }
        // Descendants first: a tile with children drawn still wants an ancestor under their gaps.
        var childLevelOf: [TileCoord: Int] = [:]
        var open = missing.map { ($0, $0) }  // (block tile, descendant to look under)
        for depth in 1...max(1, fallback.children) where fallback.children > 0 && pass.level + depth <= plan.native.upperBound {
            let children = open.flatMap { owner, tile in Self.children(of: tile).map { (owner, $0) } }
            let found = await resolve(children.map(\.1), status: .children, of: plan)
            open = []
            for (owner, child) in children {
                if found[matrix.wrapped(child)]?.image != nil {
                    childLevelOf[owner] = childLevelOf[owner] ?? pass.level + depth
                } else {
                    open.append((owner, child))
                }
            }
            result.descendants.merge(found.filter { $0.value.image != nil }) { a, _ in a }
            if open.isEmpty { break }
        }
        var unfilled = missing
        for depth in 1...max(1, fallback.parents) where fallback.parents > 0 && pass.level - depth >= plan.native.lowerBound {
            let ancestors = unfilled.map { Self.ancestor(of: $0, levelsUp: depth) }
            let found = await resolve(ancestors, status: .parent, of: plan)
            unfilled = zip(unfilled, ancestors).compactMap { tile, ancestor in
                guard found[matrix.wrapped(ancestor)]?.image != nil else { return tile }
                result.parentLevel[tile] = pass.level - depth
                return nil
            }
            result.ancestors.merge(found.filter { $0.value.image != nil }) { a, _ in a }
            if unfilled.isEmpty { break }
        }
        for tile in missing {
            let key = matrix.wrapped(tile)
            if let level = childLevelOf[tile] {
                result.withChildren.insert(tile)
                result.tiles[key]?.status = .children
                result.tiles[key]?.fallbackLevel = level
            } else if let level = result.parentLevel[tile] {
                result.tiles[key]?.status = .parent
                result.tiles[key]?.fallbackLevel = level
            }
        }
        return result
    }

    /// Resolves `coords` (unwrapped) of `plan`, each distinct wrapped tile once, keyed by the
    /// wrapped coordinate.
    func resolve(_ coords: [TileCoord], status: TileStatus, of plan: LayerPlan) async -> [TileCoord: ResolvedTile] {
        var unique: [TileCoord] = []
        var seen: Set<TileCoord> = []
        for coord in coords {
            let key = plan.matrix.wrapped(coord)
            if seen.insert(key).inserted { unique.append(key) }
        }
        let tiles = await store.tiles(unique, pixelRatio: plan.pixelRatio, from: plan.layer.source)
        var results: [TileCoord: ResolvedTile] = [:]
        for (coord, tile) in tiles {
            let drawn: TileStatus
            if case .image = tile.content { drawn = status } else { drawn = .missing }
            results[coord] = ResolvedTile(coord: coord, content: tile.content, origin: tile.origin, status: drawn,
                                          provenance: tile.provenance)
        }
        return results
    }

    /// The tile `levelsUp` levels above `tile` in a quadtree (columns may be unwrapped).
    static func ancestor(of tile: TileCoord, levelsUp: Int) -> TileCoord {
        TileCoord(z: tile.z - levelsUp, x: tile.x >> levelsUp, y: tile.y >> levelsUp)
    }

    /// The four tiles one level below `tile` in a quadtree.
    static func children(of tile: TileCoord) -> [TileCoord] {
        [(0, 0), (1, 0), (0, 1), (1, 1)].map { TileCoord(z: tile.z + 1, x: tile.x * 2 + $0.0, y: tile.y * 2 + $0.1) }
    }
}
