import Foundation

/// Two-colour checkerboard tiles, cells of `cellSize` tile pixels.
public struct CheckerboardTileSource: TileSource {
    public let info: TileSourceInfo
    let spec: CheckerboardSourceSpec

    public init(spec: CheckerboardSourceSpec) {
        self.spec = spec
        info = TileSourceInfo(identity: "checkerboard:\(spec.colors.0),\(spec.colors.1)/\(spec.cellSize)",
                              nativeZoom: TileMatrix.webMercator().levelRange,
                              drawsAtAnyPixelRatio: true, keepsTilesInMemory: false)
    }

    public func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        let matrix = info.matrix
        let outcome = GeneratedTile.draw(on: matrix, pixelRatio: pixelRatio) { context in
            context.clear(to: spec.colors.0)
            // A whole number of cells per tile, so the pattern runs on across tile edges.
            let columns = max(1, matrix.tileWidth / spec.cellSize), rows = max(1, matrix.tileHeight / spec.cellSize)
            let cellWidth = Double(matrix.tileWidth) / Double(columns), cellHeight = Double(matrix.tileHeight) / Double(rows)
            for row in 0..<rows {
                for column in 0..<columns where (row + column) % 2 == 1 {
                    context.rectangle(Double(column) * cellWidth, Double(row) * cellHeight, cellWidth, cellHeight)
                }
            }
            context.fill(spec.colors.1)
        }
        return TileFetch(outcome, origin: "checkerboard")
    }
}
