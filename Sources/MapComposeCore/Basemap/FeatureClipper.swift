/// Cuts features to a band of one axis (x or y), the step the tiler takes twice to cut a
/// tile's features into its four children. Polygons are cut ring by ring (Sutherland–Hodgman:
/// the result fills the same area inside the band, with edges along the cut); lines are split
/// into the parts inside; points outside are dropped. Points made by a cut are always kept.
enum FeatureClipper {
    /// The features inside `low...high` on `axis` (0: x, 1: y); those entirely inside are kept
    /// as they are.
    static func clip(_ features: [TilingFeature], low: Double, high: Double, axis: Int) -> [TilingFeature] {
        var result: [TilingFeature] = []
        result.reserveCapacity(features.count)
        for feature in features {
            let (a, b) = feature.bounds(axis)
            if a >= low && b <= high {
                result.append(feature)
                continue
            }
            if b < low || a > high { continue }
            var clipped = feature
            switch feature.kind {
            case .point:
                clipped.parts = feature.parts.filter { part in
                    let v = axis == 0 ? part[0].x : part[0].y
                    return v >= low && v <= high
                }
            case .line:
                clipped.parts = feature.parts.flatMap { clipLine($0, low: low, high: high, axis: axis) }
            case .polygon:
                var rings: [[TilingPoint]] = []
                for (index, ring) in feature.parts.enumerated() {
                    let cut = clipRing(ring, low: low, high: high, axis: axis)
                    if cut.count >= 3 {
                        rings.append(cut)
                    } else if index == 0 {
                        break
                    }
                }
                clipped.parts = rings
            }
            guard !clipped.parts.isEmpty else { continue }
            clipped.updateBounds()
            result.append(clipped)
        }
        return result
    }

    @inline(__always)
    private static func value(_ p: TilingPoint, _ axis: Int) -> Double { axis == 0 ? p.x : p.y }

    /// The point where `a`–`b` crosses `k` on `axis`.
    @inline(__always)
    private static func crossing(_ a: TilingPoint, _ b: TilingPoint, _ k: Double, _ axis: Int) -> TilingPoint {
        if axis == 0 {
            let t = (k - a.x) / (b.x - a.x)
            return .kept(k, a.y + (b.y - a.y) * t)
        }
        let t = (k - a.y) / (b.y - a.y)
        return .kept(a.x + (b.x - a.x) * t, k)
    }

    /// A closed ring cut to the band (the first point is not repeated at the end unless it was).
    static func clipRing(_ ring: [TilingPoint], low: Double, high: Double, axis: Int) -> [TilingPoint] {
        let once = clipRingSide(ring, k: low, keepAbove: true, axis: axis)
        return clipRingSide(once, k: high, keepAbove: false, axis: axis)
    }

    private static func clipRingSide(_ ring: [TilingPoint], k: Double, keepAbove: Bool, axis: Int) -> [TilingPoint] {
        guard let last = ring.last else { return [] }
        func inside(_ p: TilingPoint) -> Bool { keepAbove ? value(p, axis) >= k : value(p, axis) <= k }
        var output: [TilingPoint] = []
        output.reserveCapacity(ring.count + 4)
        var previous = last, previousInside = inside(last)
        for point in ring {
            let pointInside = inside(point)
            if pointInside != previousInside {
                output.append(crossing(previous, point, k, axis))
            }
            if pointInside { output.append(point) }
            previous = point
            previousInside = pointInside
        }
        return output
    }

    /// The parts of a line inside the band.
    static func clipLine(_ line: [TilingPoint], low: Double, high: Double, axis: Int) -> [[TilingPoint]] {
        var parts: [[TilingPoint]] = []
        var current: [TilingPoint] = []
        func inBand(_ v: Double) -> Bool { v >= low && v <= high }
        for index in line.indices {
            let point = line[index]
            let v = value(point, axis)
            guard index > 0 else {
                if inBand(v) { current.append(point) }
                continue
            }
            let previous = line[index - 1], u = value(previous, axis)
            var inside = inBand(u)
            if !inside {
                // Entering the band (or crossing it whole) from one side.
                if u < low && v >= low {
                    current = [crossing(previous, point, low, axis)]
                    inside = true
                } else if u > high && v <= high {
                    current = [crossing(previous, point, high, axis)]
                    inside = true
                }
            }
            if inBand(v) {
                current.append(point)
            } else if inside {
                current.append(crossing(previous, point, v > high ? high : low, axis))
                if current.count >= 2 { parts.append(current) }
                current = []
            }
        }
        if current.count >= 2 { parts.append(current) }
        return parts
    }
}
