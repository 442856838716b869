extension TileCoord {
    /// The tile's key in a disk cache folder: `z/x/y`, with `@Nx` for high-resolution tiles.
    public func cacheKey(pixelRatio: Int) -> String {
        "\(z)/\(x)/\(y)\(pixelRatio > 1 ? "@\(pixelRatio)x" : "")"
    }
}
