import Foundation
import MapLibreStyleSpec

/// A MapLibre style drawn as one layer of a mapcompose style: its layers are drawn in order,
/// in map coordinates at the output resolution, into the group the compositor opens for the
/// layer (so the layer's z-order, opacity, blend, bounds and fade apply to the whole style).
///
/// Zoom: MapLibre styles are written for GL zoom (a 512-pixel world at zoom 0); mapcompose zoom
/// z (a 256-pixel world) is GL zoom z − 1. Expressions, filters and layer zoom ranges see the GL
/// zoom; vector tiles are read at floor(GL zoom) within the source's levels (deeper levels are
/// drawn from the deepest, overzoomed).
///
/// It is a `TileSource` only to take its place in a style; the renderer asks it for a scene
/// (`prepare`) and draws that (`draw`), never for tiles.
public final class MapLibreGroup: TileSource, @unchecked Sendable {
    public let info: TileSourceInfo
    let layers: [MapLibreLayer]
    let sources: [String: MapLibreOpenedSource]
    /// The sprite's icons, by name, at one and (where the sprite has them) two pixels per CSS pixel.
    let sprite: SpriteSheets
    /// Decoded tiles kept between renders of a process (a batch, a server), bounded in bytes.
    let memo = TileMemo()

    init(identity: String, layers: [MapLibreLayer], sources: [String: MapLibreOpenedSource], sprite: SpriteSheets = SpriteSheets(),
         attribution: String?) {
        self.layers = layers
        self.sources = sources
        self.sprite = sprite
        info = TileSourceInfo(identity: "maplibre:\(identity)", nativeZoom: 0...0, attribution: attribution,
                              keepsTilesInMemory: false)
    }

    public func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        TileFetch(.missing(.absent), origin: info.identity)
    }

    /// GL zoom of a mapcompose zoom.
    static func glZoom(_ zoom: Double) -> Double { zoom - 1 }

    /// Most tiles one source may use for one render.
    static let tileLimit = 4096

    /// The tiles the visible layers need for `viewport`, fetched and decoded.
    func prepare(_ viewport: Viewport) async -> MapLibreScene {
        let zoom = Self.glZoom(viewport.zoom)
        var wanted: Set<String> = []
        for layer in layers where layer.isVisible(glZoom: zoom) {
            if let source = layer.source { wanted.insert(source) }
        }
        var scene = MapLibreScene()
        for id in wanted.sorted() {
            guard case .tiles(let source, let native, let vector, let tileSize)? = sources[id] else { continue }
            let level = Self.level(glZoom: zoom, native: native, vector: vector, tileSize: tileSize)
            guard let cells = Self.covering(viewport.extent, level: level) else {
                scene.problems.append("source '\(id)': more than \(Self.tileLimit) tiles of level \(level) cover the view")
                continue
            }
            let results = await withTaskGroup(of: (Int, PlacedTile?, String?).self) { group in
                for (index, cell) in cells.enumerated() {
                    group.addTask { [memo] in
                        let n = 1 << level
                        let coord = TileCoord(z: level, x: ((cell.x % n) + n) % n, y: cell.y)
                        let key = "\(source.info.identity)|\(coord)"
                        if let kept = memo.get(key) {
                            return (index, PlacedTile(content: kept, z: level, x: cell.x, y: cell.y), nil)
                        }
                        let fetched = await source.fetch(coord, pixelRatio: 1)
                        switch fetched.outcome {
                        case .missing(let reason):
                            return (index, nil, reason.isProblem ? "\(fetched.origin): \(reason)" : nil)
                        case .found(.raster(let image)):
                            let content = PlacedTile.Content.raster(image)
                            memo.put(key, content)
                            return (index, PlacedTile(content: content, z: level, x: cell.x, y: cell.y), nil)
                        case .found(.encoded(let data)):
                            do {
                                let content: PlacedTile.Content = vector ? .vector(try VectorTile(data))
                                    : .raster(try TileDecoder.decode(data))
                                memo.put(key, content)
                                return (index, PlacedTile(content: content, z: level, x: cell.x, y: cell.y), nil)
                            } catch {
                                return (index, nil, "\(fetched.origin): \(error)")
                            }
                        }
                    }
                }
                var all: [(Int, PlacedTile?, String?)] = []
                for await result in group { all.append(result) }
                return all.sorted { $0.0 < $1.0 }
            }
            scene.tiles[id] = results.compactMap(\.1)
            scene.problems += results.compactMap(\.2)
            scene.requested += cells.count
        }
        return scene
    }

    /// The level tiles are read at: vector tiles at floor(GL zoom), raster tiles at the nearest
    /// level for their size (as MapLibre picks them), within `native`.
    static func level(glZoom: Double, native: ClosedRange<Int>, vector: Bool, tileSize: Int) -> Int {
        let z = vector ? floor(glZoom + 1e-9) : (glZoom + log2(512 / Double(tileSize))).rounded()
        return Int(max(Double(native.lowerBound), min(Double(native.upperBound), max(0, z))))
    }

    /// The tiles of `level` covering `extent` (columns unwrapped: a view across the antimeridian
    /// has columns below 0 or past the last); nil when there are more than `tileLimit`.
    static func covering(_ extent: MetersRect, level: Int) -> [(x: Int, y: Int)]? {
        let n = 1 << level, o = WebMercator.originShift, span = 2 * o / Double(n)
        let x0 = Int(floor((extent.minX + o) / span)), x1 = Int(ceil((extent.maxX + o) / span)) - 1
        let y0 = max(0, Int(floor((o - extent.maxY) / span))), y1 = min(n - 1, Int(ceil((o - extent.minY) / span)) - 1)
        guard x1 >= x0, y1 >= y0 else { return [] }
        guard (x1 - x0 + 1) * (y1 - y0 + 1) <= tileLimit else { return nil }
        return (y0...y1).flatMap { y in (x0...x1).map { (x: $0, y: y) } }
    }
}

/// A tile placed on the map: level, unwrapped column, row.
struct PlacedTile {
    enum Content {
        case vector(VectorTile)
        case raster(RasterImage)
    }

    let content: Content
    let z: Int, x: Int, y: Int
}

/// What one render of a `MapLibreGroup` draws from: its tiles, by source id.
struct MapLibreScene: @unchecked Sendable {
    var tiles: [String: [PlacedTile]] = [:]
    var requested = 0
    /// Tiles that could not be read or decoded.
    var problems: [String] = []
}
