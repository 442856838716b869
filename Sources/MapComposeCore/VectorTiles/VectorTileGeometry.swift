/// A feature's geometry in tile units (0 ..< extent across the tile; points may lie outside,
/// in the buffer around it): points, lines, or polygons as an exterior ring followed by its
/// holes, grouped as MapLibre groups them (a ring wound as the first one starts a polygon).
public struct VectorTileGeometry: Sendable, Equatable {
    public struct Point: Sendable, Equatable {
        public var x: Int32
        public var y: Int32

        public init(x: Int32, y: Int32) {
            self.x = x
            self.y = y
        }
    }

    /// Every point of a (multi)point feature.
    public var points: [Point] = []
    /// Each line of a (multi)line feature.
    public var lines: [[Point]] = []
    /// Each polygon: its exterior ring, then its holes; rings are closed (last point = first).
    public var polygons: [[[Point]]] = []

    public init(points: [Point] = [], lines: [[Point]] = [], polygons: [[[Point]]] = []) {
        self.points = points
        self.lines = lines
        self.polygons = polygons
    }

    /// Coordinates beyond ±2^28 tile units (a 65,536-tile-wide buffer at extent 4096) are
    /// clamped there: far beyond anything drawn, and safe from overflow.
    static let coordinateLimit: Int64 = 1 << 28

    /// Decodes the packed command integers: MoveTo (1), LineTo (2), ClosePath (7), each with a
    /// count, and zig-zag encoded deltas.
    init(_ reader: inout ProtobufReader, type: VectorTileFeature.GeometryType) throws(VectorTileError) {
        var x: Int64 = 0, y: Int64 = 0
        var parts: [[Point]] = []
        var ringClosed: [Bool] = []
        func next() throws(VectorTileError) -> Int64 {
            guard !reader.atEnd else { throw .geometry("a command's parameters run past the end of the geometry") }
            let raw = try reader.varint()
            guard raw <= UInt64(UInt32.max) else { throw .geometry("parameter \(raw) is wider than 32 bits") }
            return Int64(raw >> 1) ^ -Int64(raw & 1)
        }
        while !reader.atEnd {
            let command = try reader.varint()
            guard command <= UInt64(UInt32.max) else { throw .geometry("command \(command) is wider than 32 bits") }
            let id = command & 7, count = Int(command >> 3)
            switch id {
            case 1, 2:
                guard count > 0 else { throw .geometry("\(id == 1 ? "MoveTo" : "LineTo") with a count of 0") }
                if id == 2, parts.isEmpty { throw .geometry("LineTo before any MoveTo") }
                if id == 1, type != .point, count != 1 { throw .geometry("MoveTo of \(count) points in a line or polygon") }
                for _ in 0..<count {
                    x = Swift.max(-Self.coordinateLimit, Swift.min(Self.coordinateLimit, x + (try next())))
                    y = Swift.max(-Self.coordinateLimit, Swift.min(Self.coordinateLimit, y + (try next())))
                    let point = Point(x: Int32(x), y: Int32(y))
                    if id == 1, type != .point || parts.isEmpty {
                        parts.append([point])
                        ringClosed.append(false)
                    } else {
                        parts[parts.count - 1].append(point)
                    }
                }
            case 7:
                guard count == 1 else { throw .geometry("ClosePath with a count of \(count)") }
                guard !parts.isEmpty, !ringClosed[parts.count - 1] else { throw .geometry("ClosePath without an open ring") }
                ringClosed[parts.count - 1] = true
            default:
                throw .geometry("unknown command \(id)")
            }
        }
        switch type {
        case .point: points = parts.first ?? []
        case .lineString: lines = parts.filter { $0.count >= 2 }
        case .polygon: polygons = Self.group(parts.map { ring in ring.first.map { ring + [$0] } ?? [] })
        case .unknown: break
        }
    }

    /// Twice the signed area of a closed ring (positive: clockwise with y down, an exterior
    /// ring in the format's convention).
    static func signedArea(_ ring: [Point]) -> Int64 {
        guard ring.count > 2 else { return 0 }
        var sum: Int64 = 0
        for i in 0..<ring.count - 1 {
            sum += Int64(ring[i].x) * Int64(ring[i + 1].y) - Int64(ring[i + 1].x) * Int64(ring[i].y)
        }
        return sum
    }

    /// Rings (each closed; an unclosed one is closed here) grouped into polygons: a ring wound
    /// as the first starts a polygon, one wound the other way is a hole of the polygon before
    /// it; rings of no area are left out.
    static func group(_ rings: [[Point]]) -> [[[Point]]] {
        var polygons: [[[Point]]] = []
        var exteriorSign: Bool?
        for ring in rings where ring.count >= 4 {
            let area = signedArea(ring)
            guard area != 0 else { continue }
            let sign = area > 0
            if exteriorSign == nil { exteriorSign = sign }
            if sign == exteriorSign || polygons.isEmpty {
                polygons.append([ring])
            } else {
                polygons[polygons.count - 1].append(ring)
            }
        }
        return polygons
    }
}
