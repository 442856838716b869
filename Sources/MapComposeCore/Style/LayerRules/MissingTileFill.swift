/// What fills a tile that neither the source nor any fallback has.
public enum MissingTileFill: Sendable {
    /// Nothing: what is below shows through.
    case transparent
    /// A flat colour.
    case color(RGBA)
    /// An image (e.g. an "error tile") scaled into the tile's cell.
    case image(RasterImage, path: String)
}
