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
/// longitude/latitude, naming the feature and position of every problem. Positions outside
/// ±180° longitude or ±90° latitude are errors (within a rounding slack, then clamped).
enum GeoJSONReader {
    /// Slack for coordinates that went through a rounding step (e.g. 180.00000000000003).
    static let coordinateTolerance = 1e-9

    /// Every feature with a geometry, in file order (features without one are skipped).
    static func read(_ data: Data) throws(GeoJSONError) -> [GeoJSONGeometry] {
        let (skeleton, coordinates) = GeoJSONCoordinateScanner.extract(data)
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: skeleton)
        } catch {
            throw GeoJSONError(reason: syntaxMessage(originalError(error, data: data, skeleton: skeleton), data: data))
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
                if let geometry = try read(feature: feature, context: "features[\(index)]", coordinates) { result.append(geometry) }
            }
            return result
        case "Feature":
            return try read(feature: object, context: "feature", coordinates).map { [$0] } ?? []
        default:
            var geometry = GeoJSONGeometry(context: "geometry")
            try add(geometry: object, to: &geometry, context: "geometry", coordinates)
            return [geometry]
        }
    }

    /// The error of the file itself when its skeleton (see `GeoJSONCoordinateScanner`) did not
    /// parse, so that messages give the file's positions.
    private static func originalError(_ skeletonError: any Error, data: Data, skeleton: Data) -> any Error {
        guard skeleton != data else { return skeletonError }
        do {
            _ = try JSONSerialization.jsonObject(with: data)
            return skeletonError
        } catch {
            return error
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

    private static func read(feature: [String: Any], context: String,
                             _ coordinates: [Any]) throws(GeoJSONError) -> GeoJSONGeometry? {
        guard let member = feature["geometry"] as? [String: Any] else { return nil }
        var geometry = GeoJSONGeometry(properties: feature["properties"] as? [String: Any] ?? [:], context: context)
        try add(geometry: member, to: &geometry, context: "\(context).geometry", coordinates)
        return geometry
    }

    /// One position; `path` names it in messages (built only when there is a problem).
    private static func point(_ value: Any, _ path: @autoclosure () -> String) throws(GeoJSONError) -> LonLat {
        guard let pair = value as? [Any], pair.count >= 2,
              let lon = (pair[0] as? NSNumber)?.doubleValue, let lat = (pair[1] as? NSNumber)?.doubleValue else {
            throw GeoJSONError(reason: "\(path()): a position must be [longitude, latitude]")
        }
        return try checked(lon: lon, lat: lat, path())
    }

    /// A position within ±180°/±90° (within the rounding slack, then clamped).
    private static func checked(lon: Double, lat: Double, _ path: @autoclosure () -> String) throws(GeoJSONError) -> LonLat {
        guard lon.isFinite, abs(lon) <= 180 + coordinateTolerance else {
            throw GeoJSONError(reason: "\(path()): longitude \(lon) is outside -180…180")
        }
        guard lat.isFinite, abs(lat) <= 90 + coordinateTolerance else {
            throw GeoJSONError(reason: "\(path()): latitude \(lat) is outside -90…90")
        }
        return LonLat(lon: min(max(lon, -180), 180), lat: min(max(lat, -90), 90))
    }

    private static func list(_ value: Any, _ path: @autoclosure () -> String, of what: String) throws(GeoJSONError) -> [Any] {
        guard let items = value as? [Any] else {
            throw GeoJSONError(reason: "\(path()): expected an array of \(what)")
        }
        return items
    }

    private static func line(_ value: Any, _ path: @autoclosure () -> String) throws(GeoJSONError) -> [LonLat] {
        if let scanned = value as? [LonLat] {
            var result = scanned
            for (i, position) in scanned.enumerated() {
                result[i] = try checked(lon: position.lon, lat: position.lat, "\(path())[\(i)]")
            }
            return result
        }
        let positions = try list(value, path(), of: "positions")
        var result: [LonLat] = []
        result.reserveCapacity(positions.count)
        for (i, position) in positions.enumerated() { result.append(try point(position, "\(path())[\(i)]")) }
        return result
    }

    private static func polygon(_ value: Any, _ path: @autoclosure () -> String) throws(GeoJSONError) -> [[LonLat]] {
        var result: [[LonLat]] = []
        for (i, ring) in try list(value, path(), of: "rings").enumerated() { result.append(try line(ring, "\(path())[\(i)]")) }
        return result
    }

    /// Adds one geometry; `coordinates` holds the arrays its placeholders stand for.
    private static func add(geometry: [String: Any], to feature: inout GeoJSONGeometry,
                            context: String, _ table: [Any]) throws(GeoJSONError) {
        guard let type = geometry["type"] as? String else {
            throw GeoJSONError(reason: "\(context) has no \"type\"")
        }
        if type == "GeometryCollection" {
            for (i, member) in ((geometry["geometries"] as? [Any]) ?? []).enumerated() {
                guard let member = member as? [String: Any] else { continue }
                try add(geometry: member, to: &feature, context: "\(context).geometries[\(i)]", table)
            }
            return
        }
        guard let coordinates = geometry["coordinates"].map({ GeoJSONCoordinateScanner.resolve($0, in: table) }) else {
            throw GeoJSONError(reason: "\(context) has no \"coordinates\"")
        }
        let path = "\(context).coordinates"
        switch type {
        case "Point":
            feature.points.append(try point(coordinates, path))
        case "MultiPoint":
            feature.points += try line(coordinates, path)
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
