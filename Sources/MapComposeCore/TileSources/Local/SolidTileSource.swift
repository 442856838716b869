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
