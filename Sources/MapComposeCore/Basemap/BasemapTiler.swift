import Foundation

/// Cuts features into a pyramid of vector tiles (geojson-vt's scheme): each tile's features
/// are cut from its parent's, with a buffer, simplified by their marked significance for the
/// tile's zoom, quantised to the tile's grid and encoded as a Mapbox Vector Tile.
struct BasemapTiler {
    let layerNames: [String]
    let maxZoom: Int
    /// Tile grid (MVT extent) and the buffer kept around each tile, in grid units.
    let extent = 4096
    let buffer = 64
    /// Largest simplification error below the deepest zoom, in grid units.
    let tolerance = 1.0

    /// A tile to store: address and encoded (uncompressed) bytes.
    typealias Emit = @Sendable (_ z: Int, _ x: Int, _ y: Int, _ bytes: [UInt8]) throws -> Void

    /// Tiles `features` from zoom 0 to `maxZoom`, handing every non-empty tile to `emit`.
    /// Levels 0–2 are cut in turn; the 16 subtrees below run in parallel.
    func run(_ features: [TilingFeature], emit: Emit) throws {
        var pending: [(z: Int, x: Int, y: Int, features: [TilingFeature])] = [(0, 0, 0, features)]
        let splitZoom = min(2, maxZoom)
        var roots: [(z: Int, x: Int, y: Int, features: [TilingFeature])] = []
        while let next = pending.popLast() {
            if next.z == splitZoom {
                roots.append(next)
                continue
            }
            try write(next.z, next.x, next.y, next.features, emit)
            pending += children(next.z, next.x, next.y, next.features)
        }
        let failure = FirstFailure(), subtrees = roots
        DispatchQueue.concurrentPerform(iterations: subtrees.count) { index in
            guard !failure.isSet else { return }
            let root = subtrees[index]
            do {
                try descend(root.z, root.x, root.y, root.features, emit)
            } catch {
                failure.set(error)
            }
        }
        if let error = failure.error { throw error }
    }

    private func descend(_ z: Int, _ x: Int, _ y: Int, _ features: [TilingFeature], _ emit: Emit) throws {
        try write(z, x, y, features, emit)
        guard z < maxZoom else { return }
        for child in children(z, x, y, features) {
            try descend(child.z, child.x, child.y, child.features, emit)
        }
    }

    private func write(_ z: Int, _ x: Int, _ y: Int, _ features: [TilingFeature], _ emit: Emit) throws {
        let bytes = encode(z: z, x: x, y: y, features)
        if !bytes.isEmpty { try emit(z, x, y, bytes) }
    }

    /// The four children of a tile with their features (empty children left out).
    func children(_ z: Int, _ x: Int, _ y: Int, _ features: [TilingFeature]) -> [(z: Int, x: Int, y: Int, features: [TilingFeature])] {
        guard z < maxZoom, !features.isEmpty else { return [] }
        let n = Double(1 << (z + 1)), pad = Double(buffer) / Double(extent)
        var result: [(z: Int, x: Int, y: Int, features: [TilingFeature])] = []
        for dx in 0..<2 {
            let cx = 2 * x + dx
            let column = FeatureClipper.clip(features, low: (Double(cx) - pad) / n, high: (Double(cx) + 1 + pad) / n, axis: 0)
            guard !column.isEmpty else { continue }
            for dy in 0..<2 {
                let cy = 2 * y + dy
                let cell = FeatureClipper.clip(column, low: (Double(cy) - pad) / n, high: (Double(cy) + 1 + pad) / n, axis: 1)
                if !cell.isEmpty { result.append((z + 1, cx, cy, cell)) }
            }
        }
        return result
    }

    /// The tile's features as an MVT (empty when nothing is left at this zoom).
    func encode(z: Int, x: Int, y: Int, _ features: [TilingFeature]) -> [UInt8] {
        let scale = Double(extent) * Double(1 << z)
        let originX = Double(x) * Double(extent), originY = Double(y) * Double(extent)
        let squaredTolerance = z >= maxZoom ? 0 : (tolerance / scale) * (tolerance / scale)
        func grid(_ p: TilingPoint) -> SIMD2<Int32> {
            SIMD2(Int32((p.x * scale - originX).rounded()), Int32((p.y * scale - originY).rounded()))
        }
        func simplified(_ part: [TilingPoint]) -> [SIMD2<Int32>] {
            var out: [SIMD2<Int32>] = []
            out.reserveCapacity(part.count)
            for p in part where p.significance > squaredTolerance {
                let g = grid(p)
                if out.last != g { out.append(g) }
            }
            return out
        }
        var encoder = VectorTileEncoder(extent: UInt32(extent))
        // Features that start past the deepest level are in its tiles (deeper maps magnify them).
        for feature in features where min(feature.minZoom, maxZoom) <= z {
            let layer = layerNames[feature.layer]
            switch feature.kind {
            case .point:
                encoder.add(layer: layer, properties: feature.properties, shape: .points(feature.parts.map { grid($0[0]) }))
            case .line:
                let lines = feature.parts.map(simplified).filter { $0.count >= 2 }
                if !lines.isEmpty { encoder.add(layer: layer, properties: feature.properties, shape: .lines(lines)) }
            case .polygon:
                // Shapes under two grid units across are left to deeper zooms.
                guard (feature.maxX - feature.minX) * scale >= 2 || (feature.maxY - feature.minY) * scale >= 2 else { continue }
                let rings = feature.parts.map(simplified)
                guard let exterior = rings.first, exterior.count >= 3 else { continue }
                encoder.add(layer: layer, properties: feature.properties,
                            shape: .polygons([[exterior] + rings.dropFirst().filter { $0.count >= 3 }]))
            }
        }
        return encoder.isEmpty ? [] : encoder.encoded()
    }
}

/// The first error thrown by parallel work, kept under a lock.
final class FirstFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Error?

    var error: Error? { lock.withLock { stored } }
    var isSet: Bool { error != nil }

    func set(_ error: Error) {
        lock.withLock { if stored == nil { stored = error } }
    }
}
