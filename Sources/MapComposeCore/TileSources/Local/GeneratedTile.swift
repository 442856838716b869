import Foundation

/// Draws one tile of a grid with Cairo; shared by the sources that make their own tiles.
enum GeneratedTile {
    /// Draws in tile-pixel units (`matrix.tileWidth` × `matrix.tileHeight`) onto an image of
    /// `pixelRatio` times as many pixels.
    static func draw(on matrix: TileMatrix, pixelRatio: Int, _ body: (DrawingContext) -> Void) -> TileFetch.Outcome {
        do {
            let image = try RasterImage(width: matrix.tileWidth * pixelRatio, height: matrix.tileHeight * pixelRatio)
            let context = try DrawingContext(image)
            context.scale(Double(pixelRatio))
            body(context)
            try context.finish("draw generated tile")
            return .found(.raster(image))
        } catch {
            return .missing(.readFailed(error.description))
        }
    }
}
