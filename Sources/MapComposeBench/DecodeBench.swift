import Foundation
import MapComposeCore
import MapComposeTestSupport

/// `MapComposeBench png-decode [A.png B.png]`: the time to decode one PNG tile (the 278 tiles
/// of Tests/Fixtures/Reference/tiles, each decoded many times) through Cairo's PNG reader,
/// the old path, and through mapcompose's decoder; and with two large PNGs (the diff pair),
/// the straight RGBA decode `mapcompose diff` does of each; and a vector tile decoded whole.
/// Medians of repeated runs.
enum DecodeBench {
    static func run(_ files: [String]) throws {
        let folder = TestPaths.fixture("Reference/tiles")
        let tiles = try (FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".png") }.sorted()
            .map { try Data(contentsOf: folder.appendingPathComponent($0)) }
        let cairo = median(runs: 9) {
            for tile in tiles { _ = CairoPNGReference.decode(tile) }
        } / Double(tiles.count)
        let ours = try median(runs: 9) {
            for tile in tiles { _ = try TileDecoder.decode(tile) }
        } / Double(tiles.count)
        print(String(format: "PNG tile decode (%d tiles of 256x256, one core): Cairo's reader %.3f ms per tile, "
                     + "mapcompose %.3f ms per tile (%.1fx)", tiles.count, cairo, ours, cairo / ours))
        try vectorTile()
        for file in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            let image = try StraightPNGDecoder.decode(data)
            let straight = try median(runs: 7) { _ = try StraightPNGDecoder.decode(data) }
            let reference = median(runs: 7) { _ = CairoPNGReference.decode(data) }
            print(String(format: "PNG decode of %@ (%dx%d, %d KiB): straight RGBA %.1f ms; Cairo's reader %.1f ms",
                         (file as NSString).lastPathComponent, image.width, image.height, data.count / 1024,
                         straight, reference))
        }
    }

    /// The Natural Earth vector tile fixture (Tests/Fixtures/VectorTiles, 306 features): the
    /// layers read, then every feature's properties and geometry, one core.
    static func vectorTile() throws {
        let data = try Data(contentsOf: TestPaths.fixture("VectorTiles/ne-2-2-1.mvt"))
        var points = 0
        let time = try median(runs: 15) {
            points = 0
            for _ in 0..<20 {
                let tile = try VectorTile(data)
                for layer in tile.layers {
                    for feature in layer.features {
                        _ = try layer.properties(of: feature)
                        let geometry = try layer.geometry(of: feature)
                        points += geometry.points.count + geometry.lines.reduce(0) { $0 + $1.count }
                            + geometry.polygons.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
                    }
                }
            }
        } / 20
        print(String(format: "vector tile decode (%d KiB, 306 features, %d points, properties and geometry): %.3f ms",
                     data.count / 1024, points / 20, time))
    }

    /// The median wall time of `runs` calls, in ms.
    static func median(runs: Int, _ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let started = ContinuousClock.now
            try body()
            times.append(started.duration(to: .now).milliseconds)
        }
        return times.sorted()[runs / 2]
    }
}
