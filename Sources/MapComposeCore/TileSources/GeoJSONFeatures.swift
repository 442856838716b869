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
/// Latitudes beyond the Web Mercator limit (e.g. polygons reaching ±90°) are clamped;
/// positions outside ±180° longitude or ±90° latitude are errors naming the position.
enum GeoJSONFeatures {
    /// Slack for coordinates that went through a rounding step (e.g. 180.00000000000003).
    static let coordinateTolerance = 1e-9

    static func parse(_ data: Data, labelProperty: String?) throws(GeoJSONError) -> [ProjectedFeature] {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw GeoJSONError(reason: syntaxMessage(error, data: data))
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
                if let projected = try project(feature: feature, context: "features[\(index)]", labelProperty: labelProperty) {
                    result.append(projected)
                }
            }
            return result
        case "Feature":
            return try project(feature: object, context: "feature", labelProperty: labelProperty).map { [$0] } ?? []
        default:
            var feature = ProjectedFeature()
            try add(geometry: object, to: &feature, context: "geometry")
            feature.computeBounds()
            return feature.isEmpty ? [] : [feature]
        }
    }

    /// "not valid JSON at line L, column C: reason". Foundation reports the position only in its
    /// debug description ("… around character N."), so it is read from there; for the end of the
    /// data and for numbers out of range it names none, and the position is found here.
    static func syntaxMessage(_ error: any Error, data: Data) -> String {
        var reason = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? ""
        var offset: Int?
        if let range = reason.range(of: #" around character \d+\.?$"#, options: .regularExpression) {
            offset = Int(reason[range].filter(\.isNumber))
            reason = String(reason[..<range.lowerBound])
        } else if reason.localizedCaseInsensitiveContains("end of file") {
            offset = data.count
        } else if let range = reason.range(of: #"^Number \S+ is not representable"#, options: .regularExpression) {
            let literal = reason[range].split(separator: " ")[1]
            offset = data.firstRange(of: Data(literal.utf8))?.lowerBound
            reason = "number \(literal) is out of range"
        }
        reason = reason.trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        if reason.isEmpty { reason = "unreadable data" }
        reason = reason.prefix(1).lowercased() + reason.dropFirst()
        guard let offset, let position = TextPosition(byteOffset: offset, in: data) else { return "not valid JSON: \(reason)" }
        return "not valid JSON at \(position): \(reason)"
    }

    private static func project(feature: [String: Any], context: String,
                                labelProperty: String?) throws(GeoJSONError) -> ProjectedFeature? {
        var projected = ProjectedFeature()
        guard let geometry = feature["geometry"] as? [String: Any] else { return nil }
        try add(geometry: geometry, to: &projected, context: "\(context).geometry")
        if let labelProperty, let properties = feature["properties"] as? [String: Any],
           let value = properties[labelProperty], !(value is NSNull) {
            projected.label = "\(value)"
        }
        projected.computeBounds()
        return projected.isEmpty ? nil : projected
    }

    /// One position; `path` names it in messages (built only when there is a problem).
    private static func point(_ value: Any, _ path: @autoclosure () -> String) throws(GeoJSONError) -> WorldPixel {
        guard let pair = value as? [Any], pair.count >= 2,
              let lon = (pair[0] as? NSNumber)?.doubleValue, let lat = (pair[1] as? NSNumber)?.doubleValue else {
            throw GeoJSONError(reason: "\(path()): a position must be [longitude, latitude]")
        }
        guard lon.isFinite, abs(lon) <= 180 + coordinateTolerance else {
            throw GeoJSONError(reason: "\(path()): longitude \(lon) is outside -180…180")
        }
        guard lat.isFinite, abs(lat) <= 90 + coordinateTolerance else {
            throw GeoJSONError(reason: "\(path()): latitude \(lat) is outside -90…90")
        }
        return WebMercator.worldPixel(from: LonLat(lon: min(max(lon, -180), 180), lat: min(max(lat, -90), 90)), zoom: 0)
    }

    private static func list(_ value: Any, _ path: @autoclosure () -> String, of what: String) throws(GeoJSONError) -> [Any] {
        guard let items = value as? [Any] else {
            throw GeoJSONError(reason: "\(path()): expected an array of \(what)")
        }
        return items
    }

    private static func line(_ value: Any, _ path: @autoclosure () -> String) throws(GeoJSONError) -> [WorldPixel] {
        let positions = try list(value, path(), of: "positions")
        var result: [WorldPixel] = []
        result.reserveCapacity(positions.count)
        for (i, position) in positions.enumerated() { result.append(try point(position, "\(path())[\(i)]")) }
        return result
    }

    private static func polygon(_ value: Any, _ path: @autoclosure () -> String) throws(GeoJSONError) -> [[WorldPixel]] {
        var result: [[WorldPixel]] = []
        for (i, ring) in try list(value, path(), of: "rings").enumerated() { result.append(try line(ring, "\(path())[\(i)]")) }
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
        let path = "\(context).coordinates"
        switch type {
        case "Point":
            feature.points.append(try point(coordinates, path))
        case "MultiPoint":
            for (i, item) in try list(coordinates, path, of: "positions").enumerated() {
                feature.points.append(try point(item, "\(path)[\(i)]"))
            }
        case "LineString":
            feature.lines.append(try line(coordinates, path))
        case "MultiLineString":
            for (i, item) in try list(coordinates, path, of: "lines").enumerated() {
                feature.lines.append(try line(item, "\(path)[\(i)]"))
            }
        case "Polygon":
            feature.polygons.append(try polygon(coordinates, path))
        case "MultiPolygon":
            for (i, item) in try list(coordinates, path, of: "polygons").enumerated() {
                feature.polygons.append(try polygon(item, "\(path)[\(i)]"))
            }
        default:
            throw GeoJSONError(reason: "\(context): unsupported geometry type \"\(type)\"")
        }
    }
}
