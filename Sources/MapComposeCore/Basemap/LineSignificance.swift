/// Douglas–Peucker significance: marks each point of a line or ring with the squared distance
/// at which the simplification would keep it, so a tile at any zoom keeps the points above its
/// tolerance without simplifying again.
enum LineSignificance {
    /// Sets `significance` of every point; the ends are always kept.
    static func mark(_ points: inout [TilingPoint]) {
        let count = points.count
        guard count > 0 else { return }
        points[0].significance = 1
        points[count - 1].significance = 1
        guard count > 2 else { return }
        for index in 1..<(count - 1) { points[index].significance = 0 }
        var stack: [(Int, Int)] = [(0, count - 1)]
        points.withUnsafeMutableBufferPointer { buffer in
            while let (first, last) = stack.popLast() {
                guard last - first > 1 else { continue }
                var farthest = 0.0, index = first
                let a = buffer[first], b = buffer[last]
                for i in (first + 1)..<last {
                    let d = squaredSegmentDistance(buffer[i], a, b)
                    if d > farthest {
                        farthest = d
                        index = i
                    }
                }
                guard index != first else { continue }
                buffer[index].significance = farthest
                stack.append((first, index))
                stack.append((index, last))
            }
        }
    }

    /// Squared distance from `p` to the segment `a`–`b`.
    static func squaredSegmentDistance(_ p: TilingPoint, _ a: TilingPoint, _ b: TilingPoint) -> Double {
        var x = a.x, y = a.y
        let dx = b.x - x, dy = b.y - y
        if dx != 0 || dy != 0 {
            let t = ((p.x - x) * dx + (p.y - y) * dy) / (dx * dx + dy * dy)
            if t > 1 {
                x = b.x
                y = b.y
            } else if t > 0 {
                x += dx * t
                y += dy * t
            }
        }
        let ex = p.x - x, ey = p.y - y
        return ex * ex + ey * ey
    }
}
