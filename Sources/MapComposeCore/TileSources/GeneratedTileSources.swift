import Foundation

/// Draws one 256-px tile with Cairo; shared by the generated sources.
enum GeneratedTile {
    static let size = 256

    /// Draws in 256-unit tile coordinates onto a tile of 256·pixelRatio pixels.
    static func draw(pixelRatio: Int, _ body: (DrawingContext) -> Void) -> TileFetch.Outcome {
        do {
            let image = try RasterImage(width: size * pixelRatio, height: size * pixelRatio)
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

/// Tiles of one flat colour.
public struct SolidTileSource: TileSource {
    public let info = TileSourceInfo(nativeZoom: 0...24, drawsAtAnyPixelRatio: true)
    let color: RGBA

    public init(color: RGBA) { self.color = color }

    public func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        TileFetch(GeneratedTile.draw(pixelRatio: pixelRatio) { $0.clear(to: color) }, origin: "solid \(color)")
    }
}

/// Two-colour checkerboard tiles, cells of `cellSize` tile pixels.
public struct CheckerboardTileSource: TileSource {
    public let info = TileSourceInfo(nativeZoom: 0...24, drawsAtAnyPixelRatio: true)
    let spec: CheckerboardSourceSpec

    public init(spec: CheckerboardSourceSpec) { self.spec = spec }

    public func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        let outcome = GeneratedTile.draw(pixelRatio: pixelRatio) { context in
            context.clear(to: spec.colors.0)
            let cells = max(1, GeneratedTile.size / spec.cellSize)
            let cell = Double(GeneratedTile.size) / Double(cells)
            for row in 0..<cells {
                for column in 0..<cells where (row + column) % 2 == 1 {
                    context.rectangle(Double(column) * cell, Double(row) * cell, cell, cell)
                }
            }
            context.fill(spec.colors.1)
        }
        return TileFetch(outcome, origin: "checkerboard")
    }
}

/// Tiles showing their own border and z/x/y address, for checking placement.
public struct DebugTileSource: TileSource {
    public let info = TileSourceInfo(nativeZoom: 0...24, drawsAtAnyPixelRatio: true)
    let color: RGBA

    public init(color: RGBA) { self.color = color }

    public func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        let outcome = GeneratedTile.draw(pixelRatio: pixelRatio) { context in
            let size = Double(GeneratedTile.size)
            context.rectangle(0.5, 0.5, size - 1, size - 1)
            context.stroke(color, width: 1)
            context.setFont(size: 18, bold: true)
            let label = coord.description
            let extent = context.measure(label)
            context.text(label, x: (size - extent.width) / 2, y: (size + extent.height) / 2,
                         color: color, halo: RGBA(r: 255, g: 255, b: 255, a: 200))
        }
        return TileFetch(outcome, origin: "debug")
    }
}
