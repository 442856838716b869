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
/// positions outside ±180° longitude or ±90° latitude are errors naming the position
/// (see `GeoJSONReader`).
enum GeoJSONFeatures {
    static func parse(_ data: Data, labelProperty: String?) throws(GeoJSONError) -> [ProjectedFeature] {
        try GeoJSONReader.read(data).compactMap { geometry in
            func project(_ p: LonLat) -> WorldPixel { WebMercator.worldPixel(from: p, zoom: 0) }
            var feature = ProjectedFeature()
            feature.points = geometry.points.map(project)
            feature.lines = geometry.lines.map { $0.map(project) }
            feature.polygons = geometry.polygons.map { $0.map { $0.map(project) } }
            if let labelProperty, let value = geometry.properties[labelProperty], !(value is NSNull) {
                feature.label = "\(value)"
            }
            feature.computeBounds()
            return feature.isEmpty ? nil : feature
        }
    }
}
