import Foundation

/// A polyline in device pixels measured along its length: where labels are set along a line.
/// Distances run from its first point; repeated points are dropped, so every segment has a
/// direction.
struct LabelPath {
    typealias Point = SIMD2<Double>

    let points: [Point]
    /// The distance of each point from the first.
    let distances: [Double]

    init(_ line: [Point]) {
        var points: [Point] = []
        var distances: [Double] = []
        points.reserveCapacity(line.count)
        distances.reserveCapacity(line.count)
        for point in line where point.x.isFinite && point.y.isFinite && point != points.last {
            let step = points.last.map { Self.length(point - $0) } ?? 0
            distances.append((distances.last ?? 0) + step)
            points.append(point)
        }
        self.points = points
        self.distances = distances
    }

    /// The length of the whole line (0 with fewer than two points).
    var length: Double { distances.last ?? 0 }

    /// The same line drawn the other way: a distance `d` along it is `length - d` along this one.
    func reversed() -> LabelPath { LabelPath(points.reversed()) }

    /// The point `distance` along the line (clamped to its ends) and the direction of the
    /// segment it lies on, in radians (y down, so positive angles turn clockwise).
    func position(at distance: Double) -> (point: Point, angle: Double) {
        guard points.count >= 2 else { return (points.first ?? Point(0, 0), 0) }
        let i = segment(at: distance)
        let a = points[i], b = points[i + 1]
        let t = max(0, min(1, (distance - distances[i]) / (distances[i + 1] - distances[i])))
        return (a + (b - a) * t, atan2(b.y - a.y, b.x - a.x))
    }

    /// The index of the segment that holds `distance`: the last whose start is not past it.
    func segment(at distance: Double) -> Int {
        var low = 0, high = points.count - 2
        while low < high {
            let middle = (low + high + 1) / 2
            if distances[middle] <= distance { low = middle } else { high = middle - 1 }
        }
        return max(0, low)
    }

    /// The largest sum of turns (in radians, each taken as positive) at the corners between
    /// `start` and `end` that lie within `window` of one another along the line, as MapLibre
    /// measures how sharply a label bends.
    func sharpestBend(from start: Double, to end: Double, window: Double) -> Double {
        guard points.count >= 3 else { return 0 }
        var corners: [(distance: Double, turn: Double)] = []
        var first = 0, sum = 0.0, largest = 0.0
        for i in 1..<(points.count - 1) where distances[i] > start && distances[i] < end {
            let before = points[i] - points[i - 1], after = points[i + 1] - points[i]
            let turn = abs(atan2(before.x * after.y - before.y * after.x, before.x * after.x + before.y * after.y))
            corners.append((distances[i], turn))
            sum += turn
            while distances[i] - corners[first].distance > window {
                sum -= corners[first].turn
                first += 1
            }
            largest = max(largest, sum)
        }
        return largest
    }

    /// The stretches of the line inside `rect`, as ranges of distance along it (the parts
    /// `MapLibrePainter.clip(line:to:)` cuts, measured on the whole line).
    func ranges(inside rect: MapLibrePainter.Rect) -> [ClosedRange<Double>] {
        var ranges: [ClosedRange<Double>] = []
        var open = false
        for i in 0..<max(0, points.count - 1) {
            guard let (t0, t1) = MapLibrePainter.clip(segment: points[i], points[i + 1], to: rect) else {
                open = false
                continue
            }
            let step = distances[i + 1] - distances[i]
            let from = distances[i] + step * t0, to = t1 < 1 ? distances[i] + step * t1 : distances[i + 1]
            if open, t0 == 0, let last = ranges.last {
                ranges[ranges.count - 1] = last.lowerBound...to
            } else {
                ranges.append(from...to)
            }
            open = t1 == 1
        }
        return ranges.filter { $0.upperBound > $0.lowerBound }
    }

    private static func length(_ v: Point) -> Double { (v.x * v.x + v.y * v.y).squareRoot() }
}
