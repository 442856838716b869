// Benchmark: a 1024x1024 render of three MBTiles layers at zoom 6.5, repeated in one process.
// Prints the median and spread in ms, tiles decoded per render and peak RSS. Then the same
// viewport from one ArcGIS cache, compact v2 against exploded (the ratio of the medians).
// `MapComposeBench codec MAPCOMPOSE [CODEC-FLOOR]`: codec floor, output size and start-up
// (CodecBench); with the MapComposeCodecFloor executable, the codec floor of a whole process too.
import Foundation
import MapComposeCore
import MapComposeTestSupport
#if canImport(Glibc)
import Glibc
#endif

if (3...4).contains(CommandLine.arguments.count), CommandLine.arguments[1] == "codec" {
    try await CodecBench.run(mapcompose: CommandLine.arguments[2], codecFloor: CommandLine.arguments.dropFirst(3).first)
    exit(0)
}
if CommandLine.arguments.count > 1 {
    try await BatchBench.run(Array(CommandLine.arguments.dropFirst()))
    exit(0)
}

let runs = max(1, Int(ProcessInfo.processInfo.environment["BENCH_RUNS"] ?? ProcessInfo.processInfo.environment["BENCH_REPEATS"] ?? "") ?? 25)
let center = LonLat(lon: 10.5, lat: 47.5)
let viewport = try Viewport(center: center, zoom: 6.5, width: 1024, height: 1024)
let grid = TileMatrix.webMercator()
let level = grid.level(forResolution: viewport.resolution)
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapcompose-bench-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

/// Draws the tiles of `source` covering the viewport (plus a margin) into an MBTiles file.
func makeMBTiles(_ name: String, from source: any TileSource, format: ImageFormat) async throws -> Int {
    try await BenchTiles.write(folder.appendingPathComponent(name), from: source, format: format,
                               levels: level...level, covering: viewport.extent)
}

let generators = try StyleLoader.load(text: """
    layers:
      - {id: relief, source: {type: checkerboard, colors: ["#d9d2c3", "#b8ad96"], size: 16}}
      - {id: grid, source: {type: debug, color: "#202020"}}
    """, origin: .file(folder.appendingPathComponent("generators.yaml")))
let countries = try StyleLoader.load(nameOrPath: "default").layers[0].source
let stored = [
    try await makeMBTiles("relief.mbtiles", from: generators.layers[0].source, format: .jpeg),
    try await makeMBTiles("land.mbtiles", from: countries, format: .png),
    try await makeMBTiles("grid.mbtiles", from: generators.layers[1].source, format: .png),
]
let style = try StyleLoader.load(text: """
    name: bench
    background: "#aad3df"
    layers:
      - {id: relief, source: {type: mbtiles, path: relief.mbtiles}}
      - {id: land, opacity: 0.85, source: {type: mbtiles, path: land.mbtiles}}
      - {id: grid, opacity: 0.5, blend: multiply, source: {type: mbtiles, path: grid.mbtiles}}
    """, origin: .file(folder.appendingPathComponent("bench.yaml")))

/// Times `runs` renders; `shared` keeps one tile store across them (decoded tiles stay in
/// memory), otherwise each render starts with an empty store and decodes every tile.
func measure(_ style: MapStyle, shared: Bool) async throws -> (times: [Double], decoded: Int, requested: Int) {
    // The warm-up fills the shared store; for new stores per render it warms only the caches
    // of the system (files, fonts) and its store is dropped at once.
    let sharedStore = TileStore()
    _ = try await MapRenderer(style: style, store: shared ? sharedStore : TileStore()).render(viewport)
    var times: [Double] = []
    var decoded = 0, requested = 0
    for _ in 0..<runs {
        let renderer = MapRenderer(style: style, store: shared ? sharedStore : TileStore())
        let started = ContinuousClock.now
        let result = try await renderer.render(viewport)
        times.append(started.duration(to: .now).milliseconds)
        decoded = result.report.tilesDecoded
        requested = result.report.layers.map(\.tilesRequested).reduce(0, +)
    }
    return (times.sorted(), decoded, requested)
}

/// Peak resident memory of this process so far, in MiB.
func peakRSS() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss / 1024
}

let (times, decoded, requested) = try await measure(style, shared: false)
let coldPeak = peakRSS()
let warm = try await measure(style, shared: true)
func ms(_ v: Double) -> String { String(format: "%.1f", v) }
print("mapcompose bench: 1024x1024 px, zoom 6.5 (tile level \(level)), 3 MBTiles layers (JPEG + PNG + PNG), \(stored.reduce(0, +)) tiles stored")
print("runs:            \(runs) (after 1 warm-up)")
print("median ms:       \(ms(times[times.count / 2]))")
print("min / p90 / max: \(ms(times[0])) / \(ms(times[min(times.count - 1, times.count * 9 / 10)])) / \(ms(times[times.count - 1]))")
print("tiles requested: \(requested) per render")
print("tiles decoded:   \(decoded) per render (each tile once; a new tile store per render)")
print("shared store:    median \(ms(warm.times[warm.times.count / 2])) ms, \(warm.decoded) tiles decoded per render (tiles kept in memory)")
print("peak RSS:        \(coldPeak) MiB (new store per render); \(peakRSS()) MiB after the shared-store runs")

// ArcGIS caches: the land tiles above as PNG in an exploded cache and in a compact v2 cache
// (one bundle per 128x128 tiles), each drawn alone with a new tile store per render.
let arcgisFolder = try TemporaryFolder("mapcompose-bench-arcgis")
var arcgisTiles: [ArcGISCacheFixtures.Tile] = []
if let range = grid.covering(viewport.extent, level: level) {
    for y in (range.rows.lowerBound - 1)...(range.rows.upperBound + 1) {
        for x in (range.columns.lowerBound - 1)...(range.columns.upperBound + 1) {
            guard case .found(.raster(let image)) = await countries.fetch(TileCoord(z: level, x: x, y: y), pixelRatio: 1).outcome
            else { continue }
            arcgisTiles.append(.init(level: level, row: y, column: x, data: try ImageEncoder.png(image)))
        }
    }
}
let lods = Array(zip(0..., ArcGISCacheFixtures.webMercatorResolutions(level + 1)))
var arcgisMedians: [ArcGISStorageFormat: Double] = [:]
for storage in [ArcGISStorageFormat.exploded, .compactV2] {
    let layer = try ArcGISCacheFixtures.writeCache(
        in: arcgisFolder, name: storage.label.replacingOccurrences(of: " ", with: "-"), storage: storage,
        conf: ArcGISCacheFixtures.confXML(storage: storage.rawValue, lods: lods), tiles: arcgisTiles)
    let cacheStyle = try StyleLoader.load(text: """
        name: bench-arcgis
        layers:
          - {id: land, source: {type: arcgis, path: "\(layer.path)"}}
        """, origin: .file(arcgisFolder.url.appendingPathComponent("arcgis.yaml")))
    let measured = try await measure(cacheStyle, shared: false)
    arcgisMedians[storage] = measured.times[measured.times.count / 2]
    print("arcgis \(storage.label): median \(ms(measured.times[measured.times.count / 2])) ms "
          + "(min \(ms(measured.times[0])), max \(ms(measured.times[measured.times.count - 1]))), "
          + "\(measured.decoded) tiles decoded per render")
}
if let compact = arcgisMedians[.compactV2], let exploded = arcgisMedians[.exploded] {
    print("arcgis compact v2 / exploded: \(String(format: "%.2f", compact / exploded)) "
          + "(\(arcgisTiles.count) tiles of level \(level), 1024x1024 px)")
}

try await remoteBench(mbtiles: folder.appendingPathComponent("land.mbtiles"), viewport: viewport, level: level, runs: runs,
                      folder: folder)
