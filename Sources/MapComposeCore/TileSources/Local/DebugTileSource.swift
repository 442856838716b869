import Foundation

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
            context.text(coord.description, font: TextFont(size: 18, bold: true), color: color,
                         halo: RGBA(r: 255, g: 255, b: 255, a: 200)) { extents in
                ((w - extents.width) / 2, (h + extents.inkHeight) / 2)
            }
        }
        return TileFetch(outcome, origin: "debug")
    }
}
