/// Drops the points of a line in device pixels that a drawing cannot show: first those within
/// `radialTolerance` of the last point kept (a million points in a few hundred pixels mostly
/// share their pixel), then Douglas–Peucker to `tolerance`. The line drawn strays at most the
/// sum of the two from the one given; its first and last points are always kept.
enum PathSimplifier {
    typealias Point = DeviceClipper.Point

    static let radialTolerance = 0.125
    static let tolerance = 0.25

    static func simplified(_ points: [Point], radialTolerance: Double = radialTolerance,
                           tolerance: Double = tolerance) -> [Point] {
        guard points.count > 2 else { return points }
        return douglasPeucker(radiallyThinned(points, radialTolerance), tolerance)
    }

    /// The points at least `tolerance` from the previous one kept, and the last point.
    static func radiallyThinned(_ points: [Point], _ tolerance: Double) -> [Point] {
        var kept: [Point] = [points[0]]
        let limit = tolerance * tolerance
        for point in points.dropFirst().dropLast() {
            let last = kept[kept.count - 1], dx = point.x - last.x, dy = point.y - last.y
            if dx * dx + dy * dy >= limit { kept.append(point) }
        }
        kept.append(points[points.count - 1])
        return kept
    }

    /// Douglas–Peucker with a stack of index ranges (no recursion, however long the line), run
    /// on stretches of at most `stretch` points that keep their ends: a line built to defeat it
    /// (each split taking off one point) then costs `stretch` times its length, not its square.
    static func douglasPeucker(_ points: [Point], _ tolerance: Double, stretch: Int = 1024) -> [Point] {
        guard points.count > 2 else { return points }
        var keep = [Bool](repeating: false, count: points.count)
        var ranges = stride(from: 0, to: points.count - 1, by: stretch).map { ($0, min($0 + stretch, points.count - 1)) }
        for (first, last) in ranges {
            keep[first] = true
            keep[last] = true
        }
        let limit = tolerance * tolerance
        while let (first, last) = ranges.popLast() {
            guard last - first > 1 else { continue }
            var farthest = first, largest = -1.0
            for index in first + 1..<last {
                let distance = squaredOffset(points[index], points[first], points[last])
                if distance > largest {
                    largest = distance
                    farthest = index
                }
            }
            guard largest > limit else { continue }
            keep[farthest] = true
            ranges.append((first, farthest))
            ranges.append((farthest, last))
        }
        return points.indices.compactMap { keep[$0] ? points[$0] : nil }
    }

    /// The squared distance from `p` to the segment from `a` to `b`.
    @inline(__always)
    static func squaredOffset(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y, length2 = dx * dx + dy * dy
        let t = length2 > 0 ? min(max(((p.x - a.x) * dx + (p.y - a.y) * dy) / length2, 0), 1) : 0
        let x = a.x + t * dx - p.x, y = a.y + t * dy - p.y
        return x * x + y * y
    }
}
