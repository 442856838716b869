import Foundation
import MapComposeCore

/// MBTiles files for the benchmarks, drawn from generated or built-in sources.
enum BenchTiles {
    /// Draws the tiles of `source` covering `area` (plus one tile around it) at `levels` into
    /// an MBTiles file; returns how many were stored.
    static func write(_ file: URL, from source: any TileSource, format: ImageFormat, levels: ClosedRange<Int>,
                      covering area: MetersRect) async throws -> Int {
        let grid = TileMatrix.webMercator()
        let writer = try MBTilesWriter(file: file, metadata: [
            "name": file.deletingPathExtension().lastPathComponent, "format": format == .png ? "png" : "jpg",
            "minzoom": "\(levels.lowerBound)", "maxzoom": "\(levels.upperBound)",
        ])
        var count = 0
        for level in levels {
            guard let range = grid.covering(area, level: level) else { continue }
            let side = 1 << level
            for y in max(0, range.rows.lowerBound - 1)...min(side - 1, range.rows.upperBound + 1) {
                for x in (range.columns.lowerBound - 1)...(range.columns.upperBound + 1) {
                    let coord = TileCoord(z: level, x: (x % side + side) % side, y: y)
                    guard case .found(.raster(let image)) = await source.fetch(coord, pixelRatio: 1).outcome else { continue }
                    try writer.put(coord, data: try ImageEncoder.encode(image, as: format, quality: 85))
                    count += 1
                }
            }
        }
        return count
    }
}
