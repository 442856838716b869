import Foundation

/// A point of a feature being tiled: world coordinates in [0, 1] (Web Mercator, y down) and
/// how much the line bends there (`significance`, squared world units: the point is kept at
/// every zoom whose squared tolerance is below it).
struct TilingPoint: Sendable {
    var x: Double
    var y: Double
    var significance: Double

    /// A point kept at every zoom (ends of lines, points made by clipping).
    static func kept(_ x: Double, _ y: Double) -> TilingPoint { TilingPoint(x: x, y: y, significance: 1) }
}

/// A feature of a tileset being built: its layer and properties, its geometry in world
/// coordinates, its bounding box and the first zoom whose tiles carry it.
struct TilingFeature: Sendable {
    enum Kind { case point, line, polygon }

    /// Index into the builder's layer names.
    let layer: Int
    let properties: [(key: String, value: VectorTileValue)]
    let kind: Kind
    /// Points: one part per point. Lines: one part per line. Polygon: exterior ring, then holes.
    var parts: [[TilingPoint]]
    let minZoom: Int
    var minX: Double, minY: Double, maxX: Double, maxY: Double

    init(layer: Int, properties: [(key: String, value: VectorTileValue)], kind: Kind, parts: [[TilingPoint]], minZoom: Int) {
        self.layer = layer
        self.properties = properties
        self.kind = kind
        self.parts = parts
        self.minZoom = minZoom
        (minX, minY, maxX, maxY) = (.infinity, .infinity, -.infinity, -.infinity)
        updateBounds()
    }

    /// Recomputes the bounding box from the parts.
    mutating func updateBounds() {
        var box = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for part in parts {
            for p in part {
                box = (min(box.0, p.x), min(box.1, p.y), max(box.2, p.x), max(box.3, p.y))
            }
        }
        (minX, minY, maxX, maxY) = box
    }

    /// The lower and upper bound on `axis` (0: x, 1: y).
    func bounds(_ axis: Int) -> (Double, Double) { axis == 0 ? (minX, maxX) : (minY, maxY) }

    /// World coordinates of a longitude and latitude (latitude clamped to Web Mercator's range).
    static func world(lon: Double, lat: Double) -> (x: Double, y: Double) {
        // x from the longitude directly: exact at the world's edges.
        let m = WebMercator.meters(from: LonLat(lon: lon, lat: lat)), span = 2 * WebMercator.originShift
        return ((lon + 180) / 360, max(0, min(1, (WebMercator.originShift - m.y) / span)))
    }
}
