import Foundation

/// A feature's geometry in longitude/latitude, as `within` reads it.
public struct FeatureGeometry: Sendable {
    public enum Kind: Sendable {
        case point, lineString, polygon
    }

    public var kind: Kind
    /// Points: one position per part; lines: one line per part; polygons: rings.
    public var parts: [[(lon: Double, lat: Double)]]
    /// The zoom of the tile the feature comes from: positions are snapped to that tile's
    /// 8192-unit grid, as in vector tiles. Nil: no snapping.
    public var tileZoom: Int?

    public init(kind: Kind, parts: [[(lon: Double, lat: Double)]], tileZoom: Int? = nil) {
        self.kind = kind
        self.parts = parts
        self.tileZoom = tileZoom
    }
}

/// `["within", geojson]`: whether the feature (points or lines) lies strictly inside the
/// polygons of a GeoJSON Polygon, MultiPolygon, Feature or FeatureCollection. Tested in
/// Web Mercator on the feature's tile grid; points on a boundary are outside. Polygons
/// and features are false.
final class Within: ExpressionNode {
    typealias Point = (x: Double, y: Double)
    let type = ExpressionType.boolean
    /// Polygons as rings of longitude/latitude.
    let polygons: [[[Point]]]

    init(polygons: [[[Point]]]) {
        self.polygons = polygons
    }

    func forEachChild(_ body: (ExpressionNode) -> Void) {}

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        guard args.count == 2 else {
            return ctx.error("'within' expression requires exactly one argument, but found \(args.count - 1) instead.")
        }
        var polygons: [[[Point]]] = []
        func ring(_ j: JSONValue) -> [Point] {
            (j.array ?? []).compactMap { p in
                guard let a = p.array, a.count >= 2, let x = a[0].number, let y = a[1].number else { return nil }
                return (x, y)
            }
        }
        func addGeometry(_ g: JSONValue?) {
            guard let g, let coords = g["coordinates"]?.array else { return }
            switch g["type"]?.string {
            case "Polygon": polygons.append(coords.map(ring))
            case "MultiPolygon": polygons.append(contentsOf: coords.map { ($0.array ?? []).map(ring) })
            default: break
            }
        }
        let geojson = args[1]
        switch geojson["type"]?.string {
        case "FeatureCollection":
            for f in geojson["features"]?.array ?? [] { addGeometry(f["geometry"]) }
        case "Feature":
            addGeometry(geojson["geometry"])
        default:
            addGeometry(geojson)
        }
        if polygons.isEmpty {
            return ctx.error("'within' expression requires valid geojson object that contains polygon geometry type.")
        }
        return Within(polygons: polygons)
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        guard let g = ctx.geometry, g.kind != .polygon else { return .bool(false) }
        let worldSize = MercatorGrid.worldSize(zoom: g.tileZoom ?? 0)
        func project(_ p: Point) -> Point {
            let w = MercatorGrid.project(lon: p.x, lat: p.y, size: worldSize)
            return g.tileZoom == nil ? w : (w.x.rounded(.toNearestOrAwayFromZero), w.y.rounded(.toNearestOrAwayFromZero))
        }
        let polys = polygons.map { $0.map { $0.map(project) } }
        var minX = Double.infinity, maxX = -Double.infinity
        for poly in polys { for ring in poly { for p in ring { minX = min(minX, p.x); maxX = max(maxX, p.x) } } }
        // Features across the antimeridian from the polygons are moved a world over.
        func wrap(_ p: Point) -> Point {
            guard p.x < minX || p.x > maxX else { return p }
            let half = worldSize / 2
            var shift = p.x - minX > half ? -worldSize : minX - p.x > half ? worldSize : 0
            if shift == 0 { shift = p.x - maxX > half ? -worldSize : maxX - p.x > half ? worldSize : 0 }
            return (p.x + shift, p.y)
        }
        var parts = g.parts.map { $0.map { project(($0.lon, $0.lat)) } }
        // Points move one by one; lines only when they span less than half the world.
        let xs = parts.flatMap { $0.map(\.x) }
        if g.kind == .point || (xs.max() ?? 0) - (xs.min() ?? 0) <= worldSize / 2 {
            parts = parts.map { $0.map(wrap) }
        }
        switch g.kind {
        case .point:
            for part in parts { for p in part where !polys.contains(where: { Within.contains($0, p) }) { return .bool(false) } }
        default:
            for line in parts where !polys.contains(where: { Within.contains($0, line: line) }) { return .bool(false) }
        }
        return .bool(true)
    }

    /// Ray casting; a point on an edge counts as `onBoundary`.
    static func contains(_ rings: [[Point]], _ p: Point, onBoundary: Bool = false) -> Bool {
        var inside = false
        for ring in rings where ring.count > 1 {
            for j in 0..<(ring.count - 1) {
                let a = ring[j], b = ring[j + 1]
                if onSegment(p, a, b) { return onBoundary }
                if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            }
        }
        return inside
    }

    static func onSegment(_ p: Point, _ a: Point, _ b: Point) -> Bool {
        let x1 = p.x - a.x, y1 = p.y - a.y, x2 = p.x - b.x, y2 = p.y - b.y
        return x1 * y2 - x2 * y1 == 0 && x1 * x2 <= 0 && y1 * y2 <= 0
    }

    /// All vertices inside and no segment crossing an edge.
    static func contains(_ rings: [[Point]], line: [Point]) -> Bool {
        for p in line where !contains(rings, p) { return false }
        guard line.count > 1 else { return true }
        for i in 0..<(line.count - 1) {
            for ring in rings where ring.count > 1 {
                for j in 0..<(ring.count - 1) where segmentsCross(line[i], line[i + 1], ring[j], ring[j + 1]) { return false }
            }
        }
        return true
    }

    private static func cross(_ o: Point, _ a: Point, _ b: Point) -> Double {
        (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
    }

    /// Whether segment ab and segment cd cross (touching counts; parallel segments do not).
    static func segmentsCross(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Bool {
        let d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d)
        if (b.x - a.x) * (d.y - c.y) - (b.y - a.y) * (d.x - c.x) == 0 { return false }
        return ((d1 <= 0 && d2 >= 0) || (d1 >= 0 && d2 <= 0)) && ((d3 <= 0 && d4 >= 0) || (d3 >= 0 && d4 <= 0))
    }
}
