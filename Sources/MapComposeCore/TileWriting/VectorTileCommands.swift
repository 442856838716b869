/// A shape as the format's geometry commands: MoveTo (1), LineTo (2) and ClosePath (7), each
/// with a count, and zig-zag encoded deltas from the previous point. Consecutive duplicate
/// points are dropped, then lines of fewer than 2 points and rings of fewer than 3 or of no
/// area; a polygon whose exterior ring goes loses its holes too. Rings are wound as MVT 2.1
/// says: exterior rings with a positive area by the spec's formula in tile coordinates (y
/// down: clockwise on screen), holes negative; each ends with ClosePath, its first point not
/// repeated.
struct VectorTileCommands {
    let type: VectorTileFeature.GeometryType
    private(set) var integers: [UInt32] = []
    private var cursor = SIMD2<Int64>(0, 0)

    /// The commands for `shape`; nil when nothing of it is left to draw.
    init?(_ shape: VectorTileShape) {
        switch shape {
        case .points(let points):
            type = .point
            let points = Self.cleaned(points)
            guard !points.isEmpty else { return nil }
            moveAndLine(points, moves: points.count)
        case .lines(let lines):
            type = .lineString
            for line in lines.map(Self.cleaned) where line.count >= 2 {
                moveAndLine(line, moves: 1)
            }
        case .polygons(let polygons):
            type = .polygon
            for polygon in polygons {
                guard let exterior = polygon.first.flatMap({ Self.ring($0, exterior: true) }) else { continue }
                for ring in [exterior] + polygon.dropFirst().compactMap({ Self.ring($0, exterior: false) }) {
                    moveAndLine(ring, moves: 1)
                    integers.append(Self.command(7, count: 1))
                }
            }
        }
        guard !integers.isEmpty else { return nil }
    }

    /// MoveTo the first `moves` points (all of a multipoint, or a part's start), LineTo the rest.
    private mutating func moveAndLine(_ points: [SIMD2<Int32>], moves: Int) {
        integers.append(Self.command(1, count: moves))
        for (index, point) in points.enumerated() {
            if index == moves { integers.append(Self.command(2, count: points.count - moves)) }
            let next = SIMD2<Int64>(Int64(point.x), Int64(point.y))
            let delta = next &- cursor
            integers.append(UInt32(truncatingIfNeeded: ProtobufWriter.zigzag(delta.x)))
            integers.append(UInt32(truncatingIfNeeded: ProtobufWriter.zigzag(delta.y)))
            cursor = next
        }
    }

    private static func command(_ id: UInt32, count: Int) -> UInt32 {
        id & 7 | UInt32(count) << 3
    }

    /// The points clamped to the range the decoder keeps (so every delta fits 32 bits), with
    /// consecutive duplicates dropped.
    static func cleaned(_ points: [SIMD2<Int32>]) -> [SIMD2<Int32>] {
        let limit = Int32(VectorTileGeometry.coordinateLimit)
        var result: [SIMD2<Int32>] = []
        result.reserveCapacity(points.count)
        for point in points {
            let clamped = point.clamped(lowerBound: SIMD2(repeating: -limit), upperBound: SIMD2(repeating: limit))
            if clamped != result.last { result.append(clamped) }
        }
        return result
    }

    /// The ring cleaned, without a repeated first point, and wound as an exterior ring or a
    /// hole; nil when fewer than 3 points or no area are left.
    static func ring(_ points: [SIMD2<Int32>], exterior: Bool) -> [SIMD2<Int32>]? {
        var ring = cleaned(points)
        if ring.count > 1, ring.last == ring.first { ring.removeLast() }
        guard ring.count >= 3 else { return nil }
        let closed = (ring + [ring[0]]).map { VectorTileGeometry.Point(x: $0.x, y: $0.y) }
        let area = VectorTileGeometry.signedArea(closed)
        guard area != 0 else { return nil }
        return (area > 0) == exterior ? ring : ring.reversed()
    }
}
