import Foundation

/// Tiles of one flat colour.
public struct SolidTileSource: TileSource {
    public let info: TileSourceInfo
    let color: RGBA

    public init(color: RGBA) {
        self.color = color
        info = TileSourceInfo(identity: "solid:\(color)", nativeZoom: TileMatrix.webMercator().levelRange,
                              drawsAtAnyPixelRatio: true, keepsTilesInMemory: false)
    }

    public func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        TileFetch(GeneratedTile.draw(on: info.matrix, pixelRatio: pixelRatio) { $0.clear(to: color) },
                  origin: "solid \(color)")
    }
}

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

/// Tiles showing their own border and z/x/y address, for checking placement.
public struct DebugTileSource: TileSource {
    public let info: TileSourceInfo
    let color: RGBA

    public init(color: RGBA) {
        self.color = color
        info = TileSourceInfo(identity: "debug:\(color)", nativeZoom: TileMatrix.webMercator().levelRange,
                              drawsAtAnyPixelRatio: true)
    }

    public func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        let matrix = info.matrix
        let outcome = GeneratedTile.draw(on: matrix, pixelRatio: pixelRatio) { context in
            let w = Double(matrix.tileWidth), h = Double(matrix.tileHeight)
            context.rectangle(0.5, 0.5, w - 1, h - 1)
            context.stroke(color, width: 1)
            context.setFont(size: 18, bold: true)
            let label = coord.description
            let extent = context.measure(label)
            context.text(label, x: (w - extent.width) / 2, y: (h + extent.height) / 2,
                         color: color, halo: RGBA(r: 255, g: 255, b: 255, a: 200))
        }
        return TileFetch(outcome, origin: "debug")
    }
}
