import Foundation
import MapLibreStyleSpec

/// A feature to draw: its properties, id, type and geometry in some planar coordinates (tile
/// units for vector tiles, Web Mercator metres for GeoJSON).
struct MapLibreFeature {
    enum GeometryType: String {
        case point = "Point", line = "LineString", polygon = "Polygon"
    }

    var properties: [String: Value]
    var id: Value
    var type: GeometryType
    var points: [SIMD2<Double>] = []
    var lines: [[SIMD2<Double>]] = []
    /// Each polygon: exterior ring, then holes (closed rings).
    var polygons: [[[SIMD2<Double>]]] = []
}

/// A vector or raster source of a MapLibre style, opened.
enum MapLibreOpenedSource: @unchecked Sendable {
    /// Tiles (vector or raster) and the levels the style allows; `tileSize` in GL pixels.
    case tiles(any TileSource, native: ClosedRange<Int>, vector: Bool, tileSize: Int)
    /// GeoJSON features in Web Mercator metres.
    case features([MapLibreFeature])
}

/// Opens the sources of a MapLibre style: tile sources through mapcompose's own readers
/// (MBTiles, PMTiles, folders, servers through the disk cache), GeoJSON read once.
enum MapLibreSourceOpener {
    /// Opens `definition`; the message says what is wrong.
    static func open(_ definition: MapLibreSourceDefinition, base: URL?, remote: RemoteEnvironment,
                     cacheLayer: String) -> Result<MapLibreOpenedSource, MapLibreSourceError> {
        do {
            return .success(try openNow(definition, base: base, remote: remote, cacheLayer: cacheLayer))
        } catch {
            return .failure(error)
        }
    }

    static func isRemote(_ text: String) -> Bool {
        text.hasPrefix("http://") || text.hasPrefix("https://")
    }

    /// A path from the style: absolute, or relative to the style file's folder.
    static func file(_ path: String, base: URL?) -> URL {
        if path.hasPrefix("/") || base == nil { return URL(fileURLWithPath: path).standardizedFileURL }
        return base!.appendingPathComponent(path).standardizedFileURL
    }

    private static func openNow(_ definition: MapLibreSourceDefinition, base: URL?, remote: RemoteEnvironment,
                                cacheLayer: String) throws(MapLibreSourceError) -> MapLibreOpenedSource {
        let vector = definition.kind == .vector
        let tileSize = definition.tileSize ?? 512
        let options = RemoteOptions(layer: "\(cacheLayer)-\(definition.id)")
        func tiles(_ source: any TileSource, defaultRange: ClosedRange<Int>? = nil) -> MapLibreOpenedSource {
            let own = defaultRange ?? source.info.nativeZoom
            let low = definition.minzoom ?? own.lowerBound
            let high = max(low, definition.maxzoom ?? own.upperBound)
            return .tiles(source, native: low...high, vector: vector, tileSize: tileSize)
        }
        switch definition.location {
        case .url(BasemapLocator.styleURL):
            return try tiles(basemap(vector: vector, options: options, remote: remote))
        case .url(let text) where text.hasPrefix("mbtiles://"):
            let path = file(String(text.dropFirst("mbtiles://".count)), base: base)
            do {
                return tiles(try MBTilesSource(spec: MBTilesSourceSpec(file: path)))
            } catch {
                throw MapLibreSourceError("url", error.description)
            }
        case .url(let text) where text.hasPrefix("pmtiles://"):
            let rest = String(text.dropFirst("pmtiles://".count))
            let location: PMTilesSourceSpec.Location = isRemote(rest) ? .remote(EnvironmentReference(rest))
                : .file(file(rest, base: base))
            do {
                return tiles(try PMTilesSource(spec: PMTilesSourceSpec(location: location, remote: options),
                                               environment: remote, vectorTiles: vector))
            } catch {
                throw MapLibreSourceError("url", "PMTiles '\(rest)': \(error.reason)")
            }
        case .url(let text):
            let location: TileJSONSourceSpec.Location = isRemote(text) ? .remote(EnvironmentReference(text))
                : .file(file(text, base: base))
            do {
                var spec = try TileJSONResolver.resolve(TileJSONSourceSpec(location: location, remote: options),
                                                        environment: remote)
                spec.vectorTiles = vector
                if spec.templates.allSatisfy({ isRemote($0.text) }) {
                    return tiles(RemoteXYZTileSource(spec: spec, environment: remote))
                }
                return try folderTiles(spec.templates.map(\.text), definition, base: base, native: spec.nativeZoom,
                                       tiles: tiles)
            } catch let error as MapLibreSourceError {
                throw error
            } catch {
                throw MapLibreSourceError("url", "TileJSON '\(text)': \(error)")
            }
        case .tiles(let templates):
            if templates.allSatisfy(isRemote) {
                var parsed: [TilePathTemplate] = []
                for text in templates {
                    do {
                        parsed.append(try TilePathTemplate(text, allowing: TilePathTemplate.urlPlaceholders))
                    } catch {
                        throw MapLibreSourceError("tiles", "'\(text)': \(error.description)")
                    }
                }
                var spec = RemoteXYZSourceSpec(templates: parsed, tms: definition.scheme == "tms",
                                               nativeZoom: 0...22, bounds: definition.bounds, tileSize: min(tileSize, 512),
                                               attribution: definition.attribution, remote: options)
                spec.vectorTiles = vector
                return tiles(RemoteXYZTileSource(spec: spec, environment: remote))
            }
            return try folderTiles(templates, definition, base: base, native: 0...22, tiles: tiles)
        case .inline(let json):
            return .features(try MapLibreGeoJSON.features(json))
        case .data(let text):
            let json: JSONValue
            if isRemote(text) {
                let result = RemoteDocument.fetch(EnvironmentReference(text), kind: "geojson", options: options,
                                                  environment: remote) { (data: Data) throws(RemoteDocument.Failure) -> JSONValue in
                    do {
                        return try JSONValue.parse(bytes: [UInt8](data))
                    } catch {
                        throw RemoteDocument.Failure(description: "not JSON: \(error)")
                    }
                }
                switch result {
                case .success(let value): json = value
                case .failure(let failure): throw MapLibreSourceError("data", failure.description)
                }
            } else {
                let url = file(text, base: base)
                do {
                    json = try JSONValue.parse(bytes: [UInt8](try PathStatus.read(url)))
                } catch {
                    throw MapLibreSourceError("data", "'\(text)': \(error)")
                }
            }
            return .features(try MapLibreGeoJSON.features(json))
        }
    }

    /// The installed world basemap (`mapcompose://basemap`, see `BasemapLocator`): a PMTiles
    /// file, or an MBTiles file when its name ends in .mbtiles.
    private static func basemap(vector: Bool, options: RemoteOptions,
                                remote: RemoteEnvironment) throws(MapLibreSourceError) -> any TileSource {
        let found: URL?
        do {
            found = try BasemapLocator.locate()
        } catch {
            throw MapLibreSourceError("url", error.description)
        }
        guard let file = found else {
            var error = MapLibreSourceError("url", "no world basemap is installed: \(BasemapLocator.howToInstall)")
            error.isAbsentBasemap = true
            throw error
        }
        do {
            if file.pathExtension.lowercased() == "mbtiles" {
                return try MBTilesSource(spec: MBTilesSourceSpec(file: file))
            }
            return try PMTilesSource(spec: PMTilesSourceSpec(location: .file(file), remote: options), environment: remote,
                                     vectorTiles: vector)
        } catch {
            throw MapLibreSourceError("url", "basemap '\(file.path)': \(error)")
        }
    }

    /// Tiles in files named by path templates relative to the style (one folder for all).
    private static func folderTiles(_ templates: [String], _ definition: MapLibreSourceDefinition, base: URL?,
                                    native: ClosedRange<Int>,
                                    tiles: (any TileSource, ClosedRange<Int>?) -> MapLibreOpenedSource) throws(MapLibreSourceError) -> MapLibreOpenedSource {
        var text = templates[0]
        if text.hasPrefix("file://") { text = String(text.dropFirst("file://".count)) }
        let root = text.hasPrefix("/") ? URL(fileURLWithPath: "/") : (base ?? URL(fileURLWithPath: "."))
        if text.hasPrefix("/") { text = String(text.dropFirst()) }
        do {
            let template = try TilePathTemplate(text)
            let spec = XYZSourceSpec(template: template, root: root, tms: definition.scheme == "tms", nativeZoom: native,
                                     bounds: definition.bounds, tileSize: min(definition.tileSize ?? 256, 512))
            return tiles(FolderTileSource(spec: spec), native)
        } catch {
            throw MapLibreSourceError("tiles", "'\(templates[0])': \(error.description)")
        }
    }
}

/// Why a source of a MapLibre style cannot be opened: the key at fault and what is wrong.
struct MapLibreSourceError: Error {
    let key: String
    let message: String
    /// The style names the world basemap and none is installed (a note when validating).
    var isAbsentBasemap = false

    init(_ key: String, _ message: String) {
        self.key = key
        self.message = message
    }
}

/// GeoJSON (FeatureCollection, Feature or geometry) read into features in Web Mercator metres.
enum MapLibreGeoJSON {
    static func features(_ json: JSONValue) throws(MapLibreSourceError) -> [MapLibreFeature] {
        var result: [MapLibreFeature] = []
        func fail(_ message: String) -> MapLibreSourceError { MapLibreSourceError("data", message) }
        switch json["type"]?.string {
        case "FeatureCollection":
            guard let items = json["features"]?.array else { throw fail("a FeatureCollection needs a 'features' array") }
            for (index, item) in items.enumerated() {
                try feature(item, context: "features[\(index)]", into: &result)
            }
        case "Feature":
            try feature(json, context: "feature", into: &result)
        case .some:
            try geometry(json, properties: [:], id: .null, context: "geometry", into: &result)
        case nil:
            throw fail("not GeoJSON: no 'type'")
        }
        return result
    }

    private static func feature(_ json: JSONValue, context: String, into result: inout [MapLibreFeature]) throws(MapLibreSourceError) {
        guard json["type"]?.string == "Feature" else { throw MapLibreSourceError("data", "\(context) is not a Feature") }
        guard let geometry = json["geometry"], geometry != .null else { return }
        var properties: [String: Value] = [:]
        for (key, value) in json["properties"]?.object?.members ?? [] { properties[key] = Value(value) }
        let id = json["id"].map(Value.init) ?? .null
        try self.geometry(geometry, properties: properties, id: id, context: "\(context).geometry", into: &result)
    }

    private static func position(_ json: JSONValue, _ context: String) throws(MapLibreSourceError) -> SIMD2<Double> {
        guard let items = json.array, items.count >= 2, let lon = items[0].number, let lat = items[1].number,
              lon.isFinite, lat.isFinite, abs(lat) <= 90 else {
            throw MapLibreSourceError("data", "\(context): expected a position [longitude, latitude]")
        }
        let m = WebMercator.meters(from: LonLat(lon: lon, lat: max(-WebMercator.maxLatitude, min(WebMercator.maxLatitude, lat))))
        return SIMD2(m.x, m.y)
    }

    private static func positions(_ json: JSONValue, _ context: String) throws(MapLibreSourceError) -> [SIMD2<Double>] {
        guard let items = json.array else { throw MapLibreSourceError("data", "\(context): expected an array of positions") }
        var result: [SIMD2<Double>] = []
        for (index, item) in items.enumerated() { result.append(try position(item, "\(context)[\(index)]")) }
        return result
    }

    private static func rings(_ json: JSONValue, _ context: String) throws(MapLibreSourceError) -> [[SIMD2<Double>]] {
        guard let items = json.array else { throw MapLibreSourceError("data", "\(context): expected an array of rings") }
        var result: [[SIMD2<Double>]] = []
        for (index, item) in items.enumerated() { result.append(try positions(item, "\(context)[\(index)]")) }
        return result
    }

    private static func geometry(_ json: JSONValue, properties: [String: Value], id: Value, context: String,
                                 into result: inout [MapLibreFeature]) throws(MapLibreSourceError) {
        let type = json["type"]?.string ?? ""
        if type == "GeometryCollection" {
            for (index, member) in (json["geometries"]?.array ?? []).enumerated() {
                try geometry(member, properties: properties, id: id, context: "\(context).geometries[\(index)]", into: &result)
            }
            return
        }
        guard let coordinates = json["coordinates"] else {
            throw MapLibreSourceError("data", "\(context): no 'coordinates'")
        }
        let path = "\(context).coordinates"
        var feature = MapLibreFeature(properties: properties, id: id, type: .point)
        switch type {
        case "Point": feature.points = [try position(coordinates, path)]
        case "MultiPoint": feature.points = try positions(coordinates, path)
        case "LineString":
            feature.type = .line
            feature.lines = [try positions(coordinates, path)]
        case "MultiLineString":
            feature.type = .line
            feature.lines = try rings(coordinates, path)
        case "Polygon":
            feature.type = .polygon
            feature.polygons = [try rings(coordinates, path)]
        case "MultiPolygon":
            feature.type = .polygon
            for (index, item) in (coordinates.array ?? []).enumerated() {
                feature.polygons.append(try rings(item, "\(path)[\(index)]"))
            }
        default:
            throw MapLibreSourceError("data", "\(context): unknown geometry type '\(type)'")
        }
        result.append(feature)
    }
}
