import Foundation

/// The geometry of one GeoJSON feature in longitude/latitude, with its properties.
struct GeoJSONGeometry {
    var points: [LonLat] = []
    var lines: [[LonLat]] = []
    /// Polygons, each a list of rings (outer first, holes after).
    var polygons: [[[LonLat]]] = []
    var properties: [String: Any] = [:]
    /// Where the feature is in the file, for messages: `features[3]`, `feature` or `geometry`.
    var context: String

    var isEmpty: Bool { polygons.isEmpty && lines.isEmpty && points.isEmpty }
}

/// Walks GeoJSON (FeatureCollection, Feature or bare geometry) into per-feature geometries in
/// longitude/latitude, naming the feature and key of every problem.
enum GeoJSONReader {
    /// Every feature with a geometry, in file order (features without one are skipped).
    static func read(_ data: Data) throws(GeoJSONError) -> [GeoJSONGeometry] {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw GeoJSONError(reason: "not valid JSON: \((error as NSError).localizedDescription)")
        }
        guard let object = root as? [String: Any], let type = object["type"] as? String else {
            throw GeoJSONError(reason: "not GeoJSON: the top level has no \"type\"")
        }
        switch type {
        case "FeatureCollection":
            guard let features = object["features"] as? [Any] else {
                throw GeoJSONError(reason: "FeatureCollection has no \"features\" array")
            }
            var result: [GeoJSONGeometry] = []
            for (index, item) in features.enumerated() {
                guard let feature = item as? [String: Any] else {
                    throw GeoJSONError(reason: "features[\(index)] is not an object")
                }
                if let geometry = try read(feature: feature, context: "features[\(index)]") { result.append(geometry) }
            }
            return result
        case "Feature":
            return try read(feature: object, context: "feature").map { [$0] } ?? []
        default:
            var geometry = GeoJSONGeometry(context: "geometry")
            try add(geometry: object, to: &geometry, context: "geometry")
            return [geometry]
        }
    }

    private static func read(feature: [String: Any], context: String) throws(GeoJSONError) -> GeoJSONGeometry? {
        guard let member = feature["geometry"] as? [String: Any] else { return nil }
        var geometry = GeoJSONGeometry(properties: feature["properties"] as? [String: Any] ?? [:], context: context)
        try add(geometry: member, to: &geometry, context: "\(context).geometry")
        return geometry
    }

    private static func point(_ value: Any, _ context: String) throws(GeoJSONError) -> LonLat {
        guard let pair = value as? [Any], pair.count >= 2,
              let lon = (pair[0] as? NSNumber)?.doubleValue, let lat = (pair[1] as? NSNumber)?.doubleValue,
              lon.isFinite, lat.isFinite else {
            throw GeoJSONError(reason: "\(context): a position must be [longitude, latitude]")
        }
        return LonLat(lon: lon, lat: lat)
    }

    private static func line(_ value: Any, _ context: String) throws(GeoJSONError) -> [LonLat] {
        guard let positions = value as? [Any] else {
            throw GeoJSONError(reason: "\(context): expected an array of positions")
        }
        var result: [LonLat] = []
        result.reserveCapacity(positions.count)
        for position in positions { result.append(try point(position, context)) }
        return result
    }

    private static func polygon(_ value: Any, _ context: String) throws(GeoJSONError) -> [[LonLat]] {
        guard let rings = value as? [Any] else {
            throw GeoJSONError(reason: "\(context): expected an array of rings")
        }
        var result: [[LonLat]] = []
        for ring in rings { result.append(try line(ring, context)) }
        return result
    }

    private static func add(geometry: [String: Any], to feature: inout GeoJSONGeometry,
                            context: String) throws(GeoJSONError) {
        guard let type = geometry["type"] as? String else {
            throw GeoJSONError(reason: "\(context) has no \"type\"")
        }
        if type == "GeometryCollection" {
            for (i, member) in ((geometry["geometries"] as? [Any]) ?? []).enumerated() {
                guard let member = member as? [String: Any] else { continue }
                try add(geometry: member, to: &feature, context: "\(context).geometries[\(i)]")
            }
            return
        }
        guard let coordinates = geometry["coordinates"] else {
            throw GeoJSONError(reason: "\(context) has no \"coordinates\"")
        }
        let items = coordinates as? [Any] ?? []
        switch type {
        case "Point":
            feature.points.append(try point(coordinates, context))
        case "MultiPoint":
            for item in items { feature.points.append(try point(item, context)) }
        case "LineString":
            feature.lines.append(try line(coordinates, context))
        case "MultiLineString":
            for item in items { feature.lines.append(try line(item, context)) }
        case "Polygon":
            feature.polygons.append(try polygon(coordinates, context))
        case "MultiPolygon":
            for item in items { feature.polygons.append(try polygon(item, context)) }
        default:
            throw GeoJSONError(reason: "\(context): unsupported geometry type \"\(type)\"")
        }
    }
}
