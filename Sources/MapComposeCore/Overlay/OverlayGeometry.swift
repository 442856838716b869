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

    /// Unwrapped points, each geodesic step filled in by `densifier`.
    /// A closed ring that goes once round a pole (its longitudes gain or lose 360°) is closed
    /// along that pole's latitude, so it fills the cap it encloses.
    static func vertices(_ points: [LonLat], geodesic: Bool, closed: Bool = false,
                         densifier: GeodesicDensifier) -> [LonLat] {
        let isRing = closed && points.count > 2
        let line = unwrapped(isRing ? points + [points[0]] : points)
        var result = line
        if geodesic, line.count > 1 {
            let densifier = densifier.sharing(among: line.count - 1)
            result = [line[0]]
            result.reserveCapacity(line.count)
            for (p, q) in zip(line, line.dropFirst()) {
                densifier.appendInterior(from: p, to: q, into: &result)
                result.append(q)
            }
        }
        guard isRing, let first = result.first, let last = result.last else { return result }
        guard abs(last.lon - first.lon) > 180 else { return Array(result.dropLast()) }
        let meanLatitude = points.map(\.lat).reduce(0, +) / Double(points.count)
        let pole = meanLatitude >= 0 ? 90.0 : -90.0
        return result + [LonLat(lon: last.lon, lat: pole), LonLat(lon: first.lon, lat: pole)]
    }

    /// Every outline of an overlay in longitude/latitude (markers and text: their point),
    /// geodesics filled in by `densifier`.
    static func outlines(of overlay: Overlay, densifier: GeodesicDensifier) -> [[LonLat]] {
        switch overlay {
        case .marker(let marker): return [[marker.position]]
        case .text(let text): return [[text.position]]
        case .path(let path): return [vertices(path.points, geodesic: path.geodesic, densifier: densifier)]
        case .polygon(let polygon):
            return polygon.rings.map { vertices($0, geodesic: polygon.geodesic, closed: true, densifier: densifier) }
        case .circle(let circle): return [unwrapped(circle.ring())]
        }
    }

    /// The smallest box holding every overlay (across the antimeridian when that is smaller);
    /// nil when there are none. The box may be a point or a line (west == east or south == north).
    static func bounds(of overlays: [Overlay]) -> GeoBounds? {
        var longitudes: [Double] = [], south = Double.infinity, north = -Double.infinity
        for overlay in overlays {
            // Geodesics as drawn at zoom 4 (a world of 4096 pixels), where the bounds are
            // found to within a few hundredths of a degree.
            for outline in outlines(of: overlay, densifier: GeodesicDensifier(zoom: 4)) {
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
