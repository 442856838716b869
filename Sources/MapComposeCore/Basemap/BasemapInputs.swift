import Foundation
import MapLibreStyleSpec

/// The layers of the world basemap, named as the Protomaps basemaps v4 schema names them.
enum BasemapLayer: Int, CaseIterable {
    case earth, water, boundaries, places

    var name: String { String(describing: self) }

    /// The attributes each layer's features carry (for the archive's `vector_layers`).
    var fields: [String: String] {
        switch self {
        case .earth: return ["kind": "String"]
        case .water: return ["kind": "String"]
        case .boundaries: return ["kind": "String", "kind_detail": "Number"]
        case .places: return ["kind": "String", "kind_detail": "String", "name": "String", "name:en": "String",
                              "script": "String", "population": "Number", "population_rank": "Number",
                              "min_zoom": "Number", "sort_rank": "Number", "capital": "Boolean"]
        }
    }
}

/// Reads the prepared open data (scripts/basemap/prepare_sources.py) into features to tile:
/// GSHHG shorelines (land, lakes with their islands as holes), WDBII rivers and borders,
/// and GeoNames places.
enum BasemapInputs {
    /// Every feature of the basemap, with Douglas–Peucker significance marked.
    static func load(from folder: URL, progress: (String) -> Void) throws(BasemapBuildError) -> [TilingFeature] {
        var features: [TilingFeature] = []
        let shores = try GSHHGFile.read("gshhs", in: folder)
        features += shoreFeatures(shores)
        progress("shorelines: \(shores.count) shapes, \(shores.reduce(0) { $0 + $1.points.count }) points")
        let rivers = try GSHHGFile.read("rivers", in: folder)
        features += rivers.map { line($0, .water, [("kind", .string("river"))], minZoom: 4) }
        let countries = try GSHHGFile.read("countries", in: folder)
        features += countries.map { line($0, .boundaries, [("kind", .string("country")), ("kind_detail", .int(2))], minZoom: 0) }
        let states = try GSHHGFile.read("states", in: folder)
        features += states.map { line($0, .boundaries, [("kind", .string("region")), ("kind_detail", .int(4))], minZoom: 3) }
        progress("rivers: \(rivers.count), borders: \(countries.count), region borders: \(states.count)")
        let places = try placeFeatures(folder.appendingPathComponent("places.geojson"))
        progress("places: \(places.count)")
        return features + places
    }

    /// Land (levels 1 and 5) as `earth`; lakes (level 2) as `water` with the islands in them
    /// (level 3) as holes.
    static func shoreFeatures(_ shapes: [GSHHGShape]) -> [TilingFeature] {
        var result: [TilingFeature] = []
        let lakes = shapes.filter { $0.level == 2 }
        var holes = [[[SIMD2<Double>]]](repeating: [], count: lakes.count)
        let boxes = lakes.map(box)
        for island in shapes where island.level == 3 {
            let probe = island.points[0]
            if let index = lakes.indices.first(where: { boxes[$0].contains(probe) && contains(lakes[$0].points, probe) }) {
                holes[index].append(island.points)
            }
        }
        for shape in shapes where shape.level == 1 || shape.level == 5 {
            result.append(polygon([shape.points], .earth, [("kind", .string("earth"))]))
        }
        for (index, lake) in lakes.enumerated() {
            result.append(polygon([lake.points] + holes[index], .water, [("kind", .string("lake"))]))
        }
        return result
    }

    private static func marked(_ points: [SIMD2<Double>]) -> [TilingPoint] {
        var result = points.map { p -> TilingPoint in
            let w = TilingFeature.world(lon: p.x, lat: p.y)
            return TilingPoint(x: w.x, y: w.y, significance: 0)
        }
        LineSignificance.mark(&result)
        return result
    }

    private static func polygon(_ rings: [[SIMD2<Double>]], _ layer: BasemapLayer,
                                _ properties: [(key: String, value: VectorTileValue)]) -> TilingFeature {
        TilingFeature(layer: layer.rawValue, properties: properties, kind: .polygon, parts: rings.map(marked), minZoom: 0)
    }

    private static func line(_ shape: GSHHGShape, _ layer: BasemapLayer, _ properties: [(key: String, value: VectorTileValue)],
                             minZoom: Int) -> TilingFeature {
        TilingFeature(layer: layer.rawValue, properties: properties, kind: .line, parts: [marked(shape.points)], minZoom: minZoom)
    }

    private struct Box {
        let minX, minY, maxX, maxY: Double
        func contains(_ p: SIMD2<Double>) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }
    }

    private static func box(_ shape: GSHHGShape) -> Box {
        var b = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for p in shape.points { b = (min(b.0, p.x), min(b.1, p.y), max(b.2, p.x), max(b.3, p.y)) }
        return Box(minX: b.0, minY: b.1, maxX: b.2, maxY: b.3)
    }

    /// Even–odd point in polygon.
    static func contains(_ ring: [SIMD2<Double>], _ p: SIMD2<Double>) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in ring.indices {
            let a = ring[i], b = ring[j]
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        return inside
    }

    /// Places from a GeoJSON FeatureCollection of points; properties are kept as they are and
    /// `min_zoom` decides the first zoom that carries each.
    static func placeFeatures(_ url: URL) throws(BasemapBuildError) -> [TilingFeature] {
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes: [UInt8](try Data(contentsOf: url)))
        } catch {
            throw BasemapBuildError("\(url.path): cannot read places GeoJSON: \(error)")
        }
        guard let items = json["features"]?.array else {
            throw BasemapBuildError("\(url.path): expected a FeatureCollection with 'features'")
        }
        var result: [TilingFeature] = []
        result.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard let coordinates = item["geometry"]?["coordinates"]?.array, coordinates.count >= 2,
                  let lon = coordinates[0].number, let lat = coordinates[1].number, abs(lon) <= 180, abs(lat) <= 90 else {
                throw BasemapBuildError("\(url.path): features[\(index)] is not a Point with [longitude, latitude]")
            }
            var properties: [(key: String, value: VectorTileValue)] = []
            var minZoom = 0
            for (key, value) in item["properties"]?.object?.members ?? [] {
                switch value {
                case .string(let text): properties.append((key, .string(text)))
                case .int(let number):
                    properties.append((key, .int(number)))
                    if key == "min_zoom" { minZoom = Int(max(0, min(30, number))) }
                case .double(let number): properties.append((key, .double(number)))
                case .bool(let flag): properties.append((key, .bool(flag)))
                default: continue
                }
            }
            let w = TilingFeature.world(lon: lon, lat: lat)
            result.append(TilingFeature(layer: BasemapLayer.places.rawValue, properties: properties, kind: .point,
                                        parts: [[.kept(w.x, w.y)]], minZoom: minZoom))
        }
        return result
    }
}
