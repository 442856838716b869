import Foundation

/// Fills in a geodesic step with just the points a drawing at `zoom` needs: the straight
/// segments between them stay within `tolerance` world pixels of the geodesic. A step whose
/// curve cannot bend that far is left straight without a geodesic computed (a path of a million
/// short steps costs one cheap test a step); a longer one is halved along the geodesic
/// (`Geodesic.destination`) until each half is straight enough.
struct GeodesicDensifier {
    /// World pixels (device pixels at the output's zoom) a drawn geodesic may stray.
    static let pixelTolerance = 0.25
    /// At most 2^maxDepth segments a step.
    static let maxDepth = 12
    /// Most points filled into one line by default, however many long steps it has (64 MB
    /// of positions).
    static let defaultPointBudget = 1 << 22

    let zoom: Double
    let tolerance: Double
    /// Most points filled into one line.
    let pointBudget: Int
    /// At most 2^depth segments a step.
    private(set) var depth = GeodesicDensifier.maxDepth

    init(zoom: Double, tolerance: Double = GeodesicDensifier.pixelTolerance,
         pointBudget: Int = GeodesicDensifier.defaultPointBudget) {
        self.zoom = zoom
        self.tolerance = tolerance
        self.pointBudget = pointBudget
    }

    /// This densifier with its depth lowered so that `steps` steps fill in at most
    /// `pointBudget` points in all.
    func sharing(among steps: Int) -> GeodesicDensifier {
        var shared = self
        shared.depth = min(Self.maxDepth, max(1, Int(log2(Double(pointBudget) / Double(max(steps, 1))))))
        return shared
    }

    /// Appends the points strictly between `p` and `q` (unwrapped longitudes, the step at most
    /// 180° wide) along the geodesic; their longitudes continue from `p`'s.
    func appendInterior(from p: LonLat, to q: LonLat, into points: inout [LonLat]) {
        let a = pixel(p), b = pixel(q)
        guard !isStraight(p, q, a, b) else { return }
        let (distance, azimuth) = Geodesic.inverse(from: p, to: q)
        guard distance > 0, distance.isFinite else { return }
        let step = Step(origin: p, azimuth: azimuth, distance: distance)
        step.halve(0, 1, (p, a), (q, b), depth: 0, with: self, into: &points)
    }

    func pixel(_ point: LonLat) -> WorldPixel { WebMercator.worldPixel(from: point, zoom: zoom) }

    /// True when the geodesic from `p` to `q` bends less than the tolerance from their chord
    /// on the map. On a sphere a geodesic's heading turns by sin(azimuth)·tan(latitude) per
    /// radian, and Web Mercator keeps headings, so its bulge over a chord of `c` pixels and
    /// θ radians is at most c·θ·tan(|latitude|)/8.
    func isStraight(_ p: LonLat, _ q: LonLat, _ a: WorldPixel, _ b: WorldPixel) -> Bool {
        let chord = ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
        let latitude = min(max(abs(p.lat), abs(q.lat)), 89.999) * .pi / 180
        let bulge = chord * Self.angle(p, q) * tan(latitude) / 8
        return bulge.isFinite && bulge <= tolerance
    }

    /// The angle between two points seen from the Earth's centre (haversine), in radians.
    static func angle(_ p: LonLat, _ q: LonLat) -> Double {
        let phi1 = p.lat * .pi / 180, phi2 = q.lat * .pi / 180
        let dPhi = phi2 - phi1, dLambda = (q.lon - p.lon) * .pi / 180
        let h = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        return 2 * asin(min(1, h.squareRoot()))
    }

    /// One geodesic step, halved recursively.
    private struct Step {
        let origin: LonLat
        let azimuth: Double
        let distance: Double

        /// Appends the points strictly inside the part from `t0` to `t1` (fractions of the step).
        func halve(_ t0: Double, _ t1: Double, _ start: (LonLat, WorldPixel), _ end: (LonLat, WorldPixel), depth: Int,
                   with densifier: GeodesicDensifier, into points: inout [LonLat]) {
            guard depth < densifier.depth else { return }
            let t = (t0 + t1) / 2
            let middle = Geodesic.destination(from: origin, azimuth: azimuth, distance: distance * t)
            let m = densifier.pixel(middle)
            // The cheap bound guards against a middle that happens to lie on the chord while the
            // halves bulge to either side (a geodesic crossing the equator).
            let a = start.1, b = end.1
            if PathSimplifier.squaredOffset((m.x, m.y), (a.x, a.y), (b.x, b.y)) <= densifier.tolerance * densifier.tolerance,
               densifier.isStraight(start.0, end.0, start.1, end.1) {
                return
            }
            halve(t0, t, start, (middle, m), depth: depth + 1, with: densifier, into: &points)
            points.append(middle)
            halve(t, t1, (middle, m), end, depth: depth + 1, with: densifier, into: &points)
        }
    }
}
