import Foundation

/// A tile of a layer decided on for drawing, or why there is none.
struct ResolvedTile: Sendable {
    /// Grid address with the column wrapped into the matrix.
    let coord: TileCoord
    let content: StoredTile.Content
    let origin: String
    /// How the tile's level relates to the output, or which fallback stands in for it.
    var status: TileStatus
    let provenance: StoredTile.Provenance
    /// For `.parent` and `.children`: the level the drawn pixels came from.
    var fallbackLevel: Int? = nil

    var image: RasterImage? {
        if case .image(let image) = content { return image }
        return nil
    }
}
