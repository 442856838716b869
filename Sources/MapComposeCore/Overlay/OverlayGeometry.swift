import Foundation

/// The longitude/latitude outlines overlays are drawn and fitted from: steps between points
/// take the short way round (longitudes are unwrapped, so a line crossing the antimeridian
/// continues past ±180°), and geodesic steps are filled in with points along the geodesic.
enum OverlayGeometry {
    /// Points whose longitude steps are each at most 180°, the first point unchanged.
    static func unwrapped(_ points: [LonLat]) -> [LonLat] {
        guard var previous = points.first else { return [] }
        var result = [previous]
        result.reserveCapacity(points.count)
        for point in points.dropFirst() {
            var lon = previous.lon + WebMercator.wrapLongitude(point.lon - previous.lon)
            if lon - previous.lon == -180 { lon += 360 }  // exactly opposite: go east
            previous = LonLat(lon: lon, lat: point.lat)
            result.append(previous)
        }
        return result
    }

    /// Unwrapped points, each geodesic step filled in with `steps(from, to)` points between.
    static func vertices(_ points: [LonLat], geodesic: Bool, closed: Bool = false,
                         steps: (LonLat, LonLat) -> Int) -> [LonLat] {
        let line = unwrapped(closed && points.count > 2 ? points + [points[0]] : points)
        guard geodesic, line.count > 1 else { return line }
        var result = [line[0]]
        for (p, q) in zip(line, line.dropFirst()) {
            let between = Geodesic.points(from: p, to: q, count: steps(p, q))
            // Keep the geodesic's own longitudes continuous with p (they are), then end on q.
            result += between
            result.append(q)
        }
        return closed && points.count > 2 ? Array(result.dropLast()) : result
    }

    /// Every outline of an overlay in longitude/latitude (markers and text: their point),
    /// geodesics filled in with `steps` points per step.
    static func outlines(of overlay: Overlay, steps: (LonLat, LonLat) -> Int) -> [[LonLat]] {
        switch overlay {
        case .marker(let marker): return [[marker.position]]
        case .text(let text): return [[text.position]]
        case .path(let path): return [vertices(path.points, geodesic: path.geodesic, steps: steps)]
        case .polygon(let polygon):
            return polygon.rings.map { vertices($0, geodesic: polygon.geodesic, closed: true, steps: steps) }
        case .circle(let circle): return [unwrapped(circle.ring())]
        }
    }

    /// The smallest box holding every overlay (across the antimeridian when that is smaller);
    /// nil when there are none. The box may be a point or a line (west == east or south == north).
    static func bounds(of overlays: [Overlay]) -> GeoBounds? {
        var longitudes: [Double] = [], south = Double.infinity, north = -Double.infinity
        for overlay in overlays {
            for outline in outlines(of: overlay, steps: { _, _ in 32 }) {
                for (index, point) in outline.enumerated() {
                    south = min(south, point.lat)
                    north = max(north, point.lat)
                    longitudes.append(WebMercator.wrapLongitude(point.lon))
                    // Points every 10° along a step, so the step's span counts as covered.
                    if index > 0 {
                        let from = outline[index - 1].lon, span = point.lon - from
                        let count = Int(abs(span) / 10)
                        if count > 0 {
                            for k in 1...count { longitudes.append(WebMercator.wrapLongitude(from + span * Double(k) / Double(count + 1))) }
                        }
                    }
                }
            }
        }
        guard !longitudes.isEmpty else { return nil }
        longitudes.sort()
        // The widest gap between neighbouring longitudes (wrapping round) is what the box leaves out.
        var gap = longitudes[0] + 360 - longitudes[longitudes.count - 1], west = longitudes[0], east = longitudes[longitudes.count - 1]
        for (a, b) in zip(longitudes, longitudes.dropFirst()) where b - a > gap {
            gap = b - a
            west = b
            east = a
        }
        return GeoBounds(west: west, south: max(south, -WebMercator.maxLatitude),
                         east: east, north: min(north, WebMercator.maxLatitude))
    }
}
