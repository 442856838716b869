/// Clips lines and rings in device pixels to a rectangle around the output, so shapes that
/// reach far beyond it (deep zooms, world-spanning paths) never give Cairo coordinates beyond
/// its fixed-point range. The margin keeps clip edges out of sight, strokes included.
struct DeviceClipper {
    typealias Point = (x: Double, y: Double)

    let minX: Double, minY: Double, maxX: Double, maxY: Double

    init(width: Int, height: Int, margin: Double) {
        minX = -margin
        minY = -margin
        maxX = Double(width) + margin
        maxY = Double(height) + margin
    }

    func contains(_ p: Point) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }

    /// The parts of a polyline inside the rectangle (Liang–Barsky per segment).
    func clip(line points: [Point]) -> [[Point]] {
        var pieces: [[Point]] = [], current: [Point] = []
        for (p, q) in zip(points, points.dropFirst()) {
            guard let (a, b) = clip(segment: p, q) else {
                if !current.isEmpty { pieces.append(current); current = [] }
                continue
            }
            if current.isEmpty { current = [a] } else if a.x != current.last!.x || a.y != current.last!.y {
                pieces.append(current)
                current = [a]
            }
            current.append(b)
            if b.x != q.x || b.y != q.y {
                pieces.append(current)
                current = []
            }
        }
        if !current.isEmpty { pieces.append(current) }
        if points.count == 1, contains(points[0]) { pieces.append(points) }
        return pieces
    }

    /// A ring clipped to the rectangle (Sutherland–Hodgman); edges along the rectangle's sides
    /// lie outside the output.
    func clip(ring points: [Point]) -> [Point] {
        var ring = points
        let edges: [(Point) -> Bool] = [{ $0.x >= minX }, { $0.x <= maxX }, { $0.y >= minY }, { $0.y <= maxY }]
        let crossings: [(Point, Point) -> Point] = [
            { p, q in cross(p, q, x: minX) }, { p, q in cross(p, q, x: maxX) },
            { p, q in cross(p, q, y: minY) }, { p, q in cross(p, q, y: maxY) },
        ]
        for (inside, crossing) in zip(edges, crossings) {
            guard let last = ring.last else { break }
            var output: [Point] = []
            var previous = last
            for point in ring {
                switch (inside(previous), inside(point)) {
                case (true, true): output.append(point)
                case (true, false): output.append(crossing(previous, point))
                case (false, true): output.append(crossing(previous, point)); output.append(point)
                case (false, false): break
                }
                previous = point
            }
            ring = output
        }
        return ring
    }

    private func cross(_ p: Point, _ q: Point, x: Double) -> Point {
        let t = (x - p.x) / (q.x - p.x)
        return (x, p.y + t * (q.y - p.y))
    }

    private func cross(_ p: Point, _ q: Point, y: Double) -> Point {
        let t = (y - p.y) / (q.y - p.y)
        return (p.x + t * (q.x - p.x), y)
    }

    private func clip(segment p: Point, _ q: Point) -> (Point, Point)? {
        let dx = q.x - p.x, dy = q.y - p.y
        var t0 = 0.0, t1 = 1.0
        for (denominator, numerator) in [(-dx, p.x - minX), (dx, maxX - p.x), (-dy, p.y - minY), (dy, maxY - p.y)] {
            if denominator == 0 {
                if numerator < 0 { return nil }
                continue
            }
            let t = numerator / denominator
            if denominator < 0 { if t > t1 { return nil }; t0 = max(t0, t) } else { if t < t0 { return nil }; t1 = min(t1, t) }
        }
        let a = t0 == 0 ? p : (p.x + t0 * dx, p.y + t0 * dy)
        let b = t1 == 1 ? q : (p.x + t1 * dx, p.y + t1 * dy)
        return (a, b)
    }
}
