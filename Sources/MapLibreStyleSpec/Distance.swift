import Foundation

/// `["distance", geojson]`: the shortest distance in meters between the feature and the
/// GeoJSON geometries (points, lines, polygons; 0 where they touch or overlap), measured
/// with the cheap-ruler approximation around the feature's first position.
final class Distance: ExpressionNode {
    typealias Point = (x: Double, y: Double)

    enum Shape {
        case point(Point)
        case line([Point])
        case polygon([[Point]])
    }

    let type = ExpressionType.number
    let shapes: [Shape]

    init(shapes: [Shape]) {
        self.shapes = shapes
    }

    func forEachChild(_ body: (ExpressionNode) -> Void) {}

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        guard args.count == 2 else {
            return ctx.error("'distance' expression requires exactly one argument, but found \(args.count - 1) instead.")
        }
        func position(_ j: JSONValue) -> Point? {
            guard let a = j.array, a.count >= 2, let x = a[0].number, let y = a[1].number else { return nil }
            return (x, y)
        }
        func line(_ j: JSONValue) -> [Point] { (j.array ?? []).compactMap(position) }
        func shapes(_ g: JSONValue?) -> [Shape] {
            guard let g, let coords = g["coordinates"] else { return [] }
            let parts = coords.array ?? []
            switch g["type"]?.string {
            case "Point": return position(coords).map { [.point($0)] } ?? []
            case "MultiPoint": return parts.compactMap(position).map { .point($0) }
            case "LineString": return [.line(line(coords))]
            case "MultiLineString": return parts.map { .line(line($0)) }
            case "Polygon": return [.polygon(parts.map(line))]
            case "MultiPolygon": return parts.map { .polygon(($0.array ?? []).map(line)) }
            default: return []
            }
        }
        let geojson = args[1]
        switch geojson["type"]?.string {
        case "FeatureCollection":
            return Distance(shapes: (geojson["features"]?.array ?? []).flatMap { shapes($0["geometry"]) })
        case "Feature":
            return Distance(shapes: shapes(geojson["geometry"]))
        default:
            if geojson["type"] != nil, geojson["coordinates"] != nil { return Distance(shapes: shapes(geojson)) }
        }
        return ctx.error("'distance' expression requires valid geojson object that contains polygon geometry type.")
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        guard let g = ctx.geometry else { return .number(.nan) }
        let parts = g.parts.map { $0.map { Distance.snap(($0.lon, $0.lat), tileZoom: g.tileZoom) } }
        guard let first = parts.first(where: { !$0.isEmpty })?.first else { return .number(.nan) }
        let ruler = CheapRuler(latitude: first.y)
        var best = Double.infinity
        switch g.kind {
        case .point:
            let points = parts.flatMap { $0 }
            for s in shapes {
                switch s {
                case .point(let p): for q in points { best = min(best, ruler.distance(q, p)) }
                case .line(let l): for q in points { best = min(best, ruler.pointToLine(q, l)) }
                case .polygon(let poly): for q in points { best = min(best, ruler.pointToPolygon(q, poly)) }
                }
            }
        case .lineString:
            let line = parts.flatMap { $0 }
            for s in shapes {
                switch s {
                case .point(let p): best = min(best, ruler.pointToLine(p, line))
                case .line(let l): best = min(best, ruler.lineToLine(line, l))
                case .polygon(let poly): best = min(best, ruler.lineToPolygon(line, poly))
                }
            }
        case .polygon:
            for polygon in Distance.classifyRings(parts) {
                for s in shapes {
                    switch s {
                    case .point(let p): best = min(best, ruler.pointToPolygon(p, polygon))
                    case .line(let l): best = min(best, ruler.lineToPolygon(l, polygon))
                    case .polygon(let other): best = min(best, ruler.polygonToPolygon(polygon, other))
                    }
                }
            }
        }
        return .number(best)
    }

    /// A position moved to the nearest point of its tile's 8192-unit grid (where a tile
    /// zoom is known), as vector tiles store it.
    static func snap(_ p: Point, tileZoom: Int?) -> Point {
        guard let z = tileZoom else { return p }
        let size = MercatorGrid.worldSize(zoom: z)
        let w = MercatorGrid.project(lon: p.x, lat: p.y, size: size)
        let back = MercatorGrid.unproject(x: w.x.rounded(.toNearestOrAwayFromZero), y: w.y.rounded(.toNearestOrAwayFromZero), size: size)
        return (back.lon, back.lat)
    }

    /// Rings grouped into polygons: a ring wound like the first starts a polygon, the
    /// others are its holes; rings without area are dropped.
    static func classifyRings(_ rings: [[Point]]) -> [[[Point]]] {
        if rings.count <= 1 { return [rings] }
        var polygons: [[[Point]]] = []
        var current: [[Point]]?
        var outerNegative: Bool?
        for ring in rings {
            var area = 0.0
            if ring.count > 1 {
                var j = ring.count - 1
                for i in 0..<ring.count {
                    area += (ring[j].x - ring[i].x) * (ring[i].y + ring[j].y)
                    j = i
                }
            }
            if area == 0 { continue }
            if outerNegative == nil { outerNegative = area < 0 }
            if outerNegative == (area < 0) {
                if let current { polygons.append(current) }
                current = [ring]
            } else {
                current?.append(ring)
            }
        }
        if let current { polygons.append(current) }
        return polygons
    }
}

/// Mapbox's cheap-ruler: planar distances in meters from degree differences scaled for
/// one latitude on the WGS84 ellipsoid, and the planar tests `distance` needs.
struct CheapRuler {
    typealias Point = Distance.Point
    let kx: Double, ky: Double

    init(latitude: Double) {
        let re = 6378.137, fe = 1 / 298.257223563
        let e2 = fe * (2 - fe)
        let m = Double.pi / 180 * re * 1000
        let coslat = cos(latitude * .pi / 180)
        let w2 = 1 / (1 - e2 * (1 - coslat * coslat))
        let w = w2.squareRoot()
        kx = m * w * coslat
        ky = m * w * w2 * (1 - e2)
    }

    private func wrap(_ deg: Double) -> Double {
        var d = deg
        while d < -180 { d += 360 }
        while d > 180 { d -= 360 }
        return d
    }

    func distance(_ a: Point, _ b: Point) -> Double {
        let dx = wrap(a.x - b.x) * kx, dy = (a.y - b.y) * ky
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Distance from `p` to the nearest point of the polyline.
    func pointToLine(_ p: Point, _ line: [Point]) -> Double {
        if line.count == 1 { return distance(p, line[0]) }
        var best = Double.infinity
        for i in 0..<max(0, line.count - 1) { best = min(best, pointToSegment(p, line[i], line[i + 1])) }
        return best
    }

    func pointToSegment(_ p: Point, _ a: Point, _ b: Point) -> Double {
        var x = a.x, y = a.y
        let dx = wrap(b.x - x) * kx, dy = (b.y - y) * ky
        if dx != 0 || dy != 0 {
            let t = (wrap(p.x - x) * kx * dx + (p.y - y) * ky * dy) / (dx * dx + dy * dy)
            if t > 1 {
                x = b.x; y = b.y
            } else if t > 0 {
                x += dx / kx * t
                y += dy / ky * t
            }
        }
        return distance(p, (x, y))
    }

    func segmentToSegment(_ p1: Point, _ p2: Point, _ q1: Point, _ q2: Point) -> Double {
        min(pointToSegment(p1, q1, q2), pointToSegment(p2, q1, q2), pointToSegment(q1, p1, p2), pointToSegment(q2, p1, p2))
    }

    /// Whether segments p and q cross properly (endpoints on strictly opposite sides).
    static func segmentsCross(_ p1: Point, _ p2: Point, _ q1: Point, _ q2: Point) -> Bool {
        func sides(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Bool {
            let x1 = a.x - c.x, y1 = a.y - c.y, x2 = b.x - c.x, y2 = b.y - c.y, x3 = d.x - c.x, y3 = d.y - c.y
            let d1 = x1 * y3 - x3 * y1, d2 = x2 * y3 - x3 * y2
            return (d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)
        }
        if (q2.x - q1.x) * (p2.y - p1.y) - (q2.y - q1.y) * (p2.x - p1.x) == 0 { return false }
        return sides(p1, p2, q1, q2) && sides(q1, q2, p1, p2)
    }

    func lineToLine(_ a: [Point], _ b: [Point]) -> Double {
        if a.count == 1 { return pointToLine(a[0], b) }
        if b.count == 1 { return pointToLine(b[0], a) }
        var best = Double.infinity
        for i in 0..<max(0, a.count - 1) {
            for j in 0..<max(0, b.count - 1) {
                if CheapRuler.segmentsCross(a[i], a[i + 1], b[j], b[j + 1]) { return 0 }
                best = min(best, segmentToSegment(a[i], a[i + 1], b[j], b[j + 1]))
            }
        }
        return best
    }

    /// Whether `p` is in the polygon or on its boundary.
    static func inside(_ p: Point, _ rings: [[Point]]) -> Bool { Within.contains(rings, p, onBoundary: true) }

    /// The ring's edges, the closing edge included.
    private func edges(_ ring: [Point]) -> [(Point, Point)] {
        guard ring.count > 1 else { return [] }
        return (0..<ring.count).map { (ring[($0 + ring.count - 1) % ring.count], ring[$0]) }
    }

    func pointToPolygon(_ p: Point, _ polygon: [[Point]]) -> Double {
        if CheapRuler.inside(p, polygon) { return 0 }
        var best = Double.infinity
        for ring in polygon {
            for (a, b) in edges(ring) { best = min(best, pointToSegment(p, a, b)) }
        }
        return best
    }

    func lineToPolygon(_ line: [Point], _ polygon: [[Point]]) -> Double {
        for p in line where CheapRuler.inside(p, polygon) { return 0 }
        if line.count == 1 { return pointToPolygon(line[0], polygon) }
        var best = Double.infinity
        for i in 0..<max(0, line.count - 1) {
            for ring in polygon {
                for (a, b) in edges(ring) {
                    if CheapRuler.segmentsCross(line[i], line[i + 1], a, b) { return 0 }
                    best = min(best, segmentToSegment(line[i], line[i + 1], a, b))
                }
            }
        }
        return best
    }

    func polygonToPolygon(_ a: [[Point]], _ b: [[Point]]) -> Double {
        for ring in a { for p in ring where CheapRuler.inside(p, b) { return 0 } }
        for ring in b { for p in ring where CheapRuler.inside(p, a) { return 0 } }
        var best = Double.infinity
        for r1 in a {
            for (p1, p2) in edges(r1) {
                for r2 in b {
                    for (q1, q2) in edges(r2) {
                        if CheapRuler.segmentsCross(p1, p2, q1, q2) { return 0 }
                        best = min(best, segmentToSegment(p1, p2, q1, q2))
                    }
                }
            }
        }
        return best
    }
}
