import Foundation

/// A tile of a layer decided on for drawing, or why there is none.
struct ResolvedTile: Sendable {
    /// Grid address with the column wrapped into the matrix.
    let coord: TileCoord
    let content: StoredTile.Content
    let origin: String
    /// How the tile's level relates to the output (or `.missing`).
    let status: TileStatus
    let provenance: StoredTile.Provenance

    var image: RasterImage? {
        if case .image(let image) = content { return image }
        return nil
    }
}
