/// The pixels of a rendered map: an image, or tiles still to be resampled onto it.
enum MapPixels {
    case image(RasterImage)
    case translated(TranslatedTiles)

    /// The map as an image. Translated tiles are resampled in place: ask once, the slab is then
    /// the map.
    func image() throws(CairoError) -> RasterImage {
        switch self {
        case .image(let image): return image
        case .translated(let tiles): return try tiles.resampledInPlace()
        }
    }
}
