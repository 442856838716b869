import Foundation

/// A GeoJSON feature projected to zoom-0 world pixels (0…256), ready to draw at any level.
struct ProjectedFeature: Sendable {
    /// Polygons, each a list of rings (outer first, holes after).
    var polygons: [[[WorldPixel]]] = []
    var lines: [[WorldPixel]] = []
    var points: [WorldPixel] = []
    var label: String?
    var minX = Double.infinity, minY = Double.infinity
    var maxX = -Double.infinity, maxY = -Double.infinity

    mutating func include(_ p: WorldPixel) {
        minX = min(minX, p.x); maxX = max(maxX, p.x)
        minY = min(minY, p.y); maxY = max(maxY, p.y)
    }

    /// Sets the bounding box from the geometry (outer rings only for polygons).
    mutating func computeBounds() {
        for p in points { include(p) }
        for line in lines { line.forEach { include($0) } }
        for polygon in polygons { polygon.first?.forEach { include($0) } }
    }

    var isEmpty: Bool { polygons.isEmpty && lines.isEmpty && points.isEmpty }
}

/// Why a GeoJSON file could not be read.
public struct GeoJSONError: Error, CustomStringConvertible, Equatable {
    public let reason: String
    public var description: String { reason }
}

/// Parses GeoJSON (FeatureCollection, Feature or bare geometry) into projected features.
/// Latitudes beyond the Web Mercator limit (e.g. polygons reaching ±90°) are clamped.
enum GeoJSONFeatures {
    static func parse(_ data: Data, labelProperty: String?) throws(GeoJSONError) -> [ProjectedFeature] {
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
            var result: [ProjectedFeature] = []
            for (index, item) in features.enumerated() {
                guard let feature = item as? [String: Any] else {
                    throw GeoJSONError(reason: "features[\(index)] is not an object")
                }
                if let projected = try project(feature: feature, index: index, labelProperty: labelProperty) {
                    result.append(projected)
                }
            }
            return result
        case "Feature":
            return try project(feature: object, index: 0, labelProperty: labelProperty).map { [$0] } ?? []
        default:
            var feature = ProjectedFeature()
            try add(geometry: object, to: &feature, context: "geometry")
            feature.computeBounds()
            return feature.isEmpty ? [] : [feature]
        }
    }

    private static func project(feature: [String: Any], index: Int,
                                labelProperty: String?) throws(GeoJSONError) -> ProjectedFeature? {
        var projected = ProjectedFeature()
        guard let geometry = feature["geometry"] as? [String: Any] else { return nil }
        try add(geometry: geometry, to: &projected, context: "features[\(index)].geometry")
        if let labelProperty, let properties = feature["properties"] as? [String: Any],
           let value = properties[labelProperty], !(value is NSNull) {
            projected.label = "\(value)"
        }
        projected.computeBounds()
        return projected.isEmpty ? nil : projected
    }

    private static func point(_ value: Any, _ context: String) throws(GeoJSONError) -> WorldPixel {
        guard let pair = value as? [Any], pair.count >= 2,
              let lon = (pair[0] as? NSNumber)?.doubleValue, let lat = (pair[1] as? NSNumber)?.doubleValue,
              lon.isFinite, lat.isFinite else {
            throw GeoJSONError(reason: "\(context): a position must be [longitude, latitude]")
        }
        return WebMercator.worldPixel(from: LonLat(lon: lon, lat: lat), zoom: 0)
    }

    private static func line(_ value: Any, _ context: String) throws(GeoJSONError) -> [WorldPixel] {
        guard let positions = value as? [Any] else {
            throw GeoJSONError(reason: "\(context): expected an array of positions")
        }
        var result: [WorldPixel] = []
        result.reserveCapacity(positions.count)
        for position in positions { result.append(try point(position, context)) }
        return result
    }

    private static func polygon(_ value: Any, _ context: String) throws(GeoJSONError) -> [[WorldPixel]] {
        guard let rings = value as? [Any] else {
            throw GeoJSONError(reason: "\(context): expected an array of rings")
        }
        var result: [[WorldPixel]] = []
        for ring in rings { result.append(try line(ring, context)) }
        return result
    }

    private static func add(geometry: [String: Any], to feature: inout ProjectedFeature,
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
