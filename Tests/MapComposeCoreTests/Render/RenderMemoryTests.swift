import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// A render holds tile pixels only while it composites them: once a layer is drawn its
/// tiles are released (unless the store keeps them), so memory does not grow with the number
/// of layers.
@Suite struct RenderMemoryTests {
    /// Every tile image the watched sources made, through weak references, and the most that
    /// were alive at once when a new one was made.
    final class Watch: @unchecked Sendable {
        private struct Weak { weak var image: RasterImage? }
        private let lock = NSLock()
        private var images: [Weak] = []
        private(set) var mostAlive = 0

        func add(_ image: RasterImage) {
            lock.withLock {
                images.append(Weak(image: image))
                mostAlive = max(mostAlive, images.count { $0.image != nil })
            }
        }

        var made: Int { lock.withLock { images.count } }
        var alive: Int { lock.withLock { images.count { $0.image != nil } } }
    }

    /// Solid tiles whose images are watched.
    struct WatchedTileSource: TileSource {
        let info: TileSourceInfo
        let watch: Watch

        init(identity: String, watch: Watch) {
            info = TileSourceInfo(identity: identity, nativeZoom: 0...22, keepsTilesInMemory: false)
            self.watch = watch
        }

        func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
            guard let image = try? RasterImage(width: 256, height: 256, color: RGBA(r: 90, g: 140, b: 200)) else {
                return TileFetch(.missing(.readFailed("no image")), origin: "watched")
            }
            watch.add(image)
            return TileFetch(.found(.raster(image)), origin: "watched")
        }
    }

    @Test func noTilePixelsOutliveTheRender() async throws {
        let watch = Watch()
        let sources = (0..<40).map { WatchedTileSource(identity: "watched-\($0)", watch: watch) }
        let layers = sources.enumerated().map { index, source in
            MapLayer(spec: LayerSpec(id: "l\(index)", source: .solid(color: .white), z: 0, opacity: 0.5, blend: .srcOver,
                                     minzoom: 0, maxzoom: 30, bounds: nil),
                     source: source)
        }
        let style = MapStyle(document: StyleDocument(name: "watched", background: .white, attribution: nil,
                                                     layers: layers.map(\.spec)),
                             layers: layers, origin: .builtIn(BuiltInStyle.all[0]))
        let viewport = try Viewport(center: LonLat(lon: 10, lat: 48), zoom: 5, width: 800, height: 600)
        let result = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport)
        let perLayer = result.report.layers[0].tilesDrawn
        #expect(perLayer >= 12 && result.report.layers.allSatisfy { $0.tilesDrawn == perLayer })
        #expect(watch.made == 40 * perLayer)
        // Tiles of the block being drawn and of the few resolved ahead, never of all 40 layers.
        #expect(watch.mostAlive <= (MapRenderer.lookahead + 2) * perLayer, "at most \(watch.mostAlive) alive at once")
        #expect(watch.alive == 0, "the report keeps no tile images")
    }
}
