import Foundation
import MapComposeCore

/// `MapComposeBench batch-fixture DIR`: a region of Europe as two MBTiles layers (JPEG relief,
/// PNG countries from the built-in style) at levels 4…7, a style using them, and manifests of
/// 500 and 5000 maps of 512×512 at zooms 5…7 inside the region (`manifest-500.jsonl`, …).
/// `MapComposeBench diff-fixture DIR`: two 2048×2048 renders of the default style a fraction
/// of a pixel apart (`a.png`, `b.png`). `MapComposeBench diff-speed A B`: the median time of
/// the pixelmatch comparison alone (decoding excluded), in Mpixel/s.
enum BatchBench {
    static let region = GeoBounds(west: -10, south: 36, east: 30, north: 60)

    static func run(_ arguments: [String]) async throws {
        switch (arguments.first, arguments.count) {
        case ("batch-fixture", 2): try await batchFixture(URL(fileURLWithPath: arguments[1]))
        case ("scaling-fixture", 2), ("scaling-fixture", 3):
            try await ScalingFixture.write(to: URL(fileURLWithPath: arguments[1]),
                                           count: arguments.count == 3 ? max(1, Int(arguments[2]) ?? 8000) : 8000)
        case ("diff-fixture", 2): try await diffFixture(URL(fileURLWithPath: arguments[1]))
        case ("diff-speed", 3): try diffSpeed(arguments[1], arguments[2])
        case ("png-decode", _): try DecodeBench.run(Array(arguments.dropFirst()))
        default:
            FileHandle.standardError.write(Data("usage: MapComposeBench [batch-fixture DIR | scaling-fixture DIR [COUNT] | diff-fixture DIR | diff-speed A.png B.png | png-decode [A.png …]]\n".utf8))
            exit(2)
        }
    }

    static func batchFixture(_ folder: URL) async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let area = try Viewport.fitting(region, width: 1024, height: 1024, fractionalZoom: true).extent
        let relief = try StyleLoader.load(text: """
            layers: [{id: relief, source: {type: checkerboard, colors: ["#d9d2c3", "#b8ad96"], size: 16}}]
            """, origin: .file(folder.appendingPathComponent("generators.yaml"))).layers[0].source
        let countries = try StyleLoader.load(nameOrPath: "default").layers[0].source
        let stored = try await BenchTiles.write(folder.appendingPathComponent("relief.mbtiles"), from: relief,
                                                format: .jpeg, levels: 4...7, covering: area)
            + BenchTiles.write(folder.appendingPathComponent("land.mbtiles"), from: countries,
                               format: .png, levels: 4...7, covering: area)
        try """
            name: region
            background: "#aad3df"
            layers:
              - {id: relief, source: {type: mbtiles, path: relief.mbtiles}}
              - {id: land, opacity: 0.85, source: {type: mbtiles, path: land.mbtiles}}
            """.write(to: folder.appendingPathComponent("region.yaml"), atomically: true, encoding: .utf8)
        for count in [500, 5000] {
            var generator = SystemRandomNumberGenerator()
            try writeManifest(folder.appendingPathComponent("manifest-\(count).jsonl"), count: count, zooms: 5...7,
                              style: "region.yaml", using: &generator)
        }
        print("batch fixture: \(stored) tiles in 2 MBTiles files, manifests of 500 and 5000 maps in \(folder.path)")
    }

    /// Writes a manifest of `count` maps of 512×512 of `style` (JSON Lines) to `file`: centres
    /// inside 40…56 N, 5 W…25 E, zooms in `zooms`, outputs `0.png`, `1.png`, …
    static func writeManifest(_ file: URL, count: Int, zooms: ClosedRange<Double>, style: String,
                              using generator: inout some RandomNumberGenerator) throws {
        var lines = ""
        for index in 0..<count {
            let lat = Double.random(in: 40...56, using: &generator), lon = Double.random(in: -5...25, using: &generator)
            let zoom = Double.random(in: zooms, using: &generator)
            lines += "{\"id\": \"m\(index)\", \"output\": \"\(index).png\", \"center\": [\(lat), \(lon)], "
                + "\"zoom\": \(zoom), \"size\": \"512x512\", \"style\": \"\(style)\"}\n"
        }
        try lines.write(to: file, atomically: true, encoding: .utf8)
    }

    static func diffFixture(_ folder: URL) async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = TileStore()
        let style = try StyleLoader.load(nameOrPath: "default")
        for (name, lon) in [("a.png", 10.0), ("b.png", 10.02)] {
            let viewport = try Viewport(center: LonLat(lon: lon, lat: 48), zoom: 5.3, width: 2048, height: 2048)
            let image = try await MapRenderer(style: style, store: store).render(viewport).image
            try ImageEncoder.png(image).write(to: folder.appendingPathComponent(name))
        }
        print("diff fixture: 2048x2048 a.png and b.png in \(folder.path)")
    }

    static func diffSpeed(_ first: String, _ second: String) throws {
        let a = try StraightPNGDecoder.decode(file: first), b = try StraightPNGDecoder.decode(file: second)
        var times: [Double] = []
        var differing = 0
        for _ in 0..<7 {
            let started = ContinuousClock.now
            differing = try ImageDiff.compare(a, b).differingPixels
            times.append(started.duration(to: .now).milliseconds)
        }
        times.sort()
        let megapixels = Double(a.width * a.height) / 1e6
        print(String(format: "diff step (mapcompose, in process): median %.1f ms = %.0f Mpixel/s, %d pixels differ",
                     times[times.count / 2], megapixels / (times[times.count / 2] / 1000), differing))
    }
}
