import Foundation

/// GeoJSON features stored ready to project: the built-in style's data, written by
/// scripts/embed-default-style.py next to its text, so a run reads numbers instead of parsing
/// 350 KB of JSON. The same features as `GeoJSONFeatures.parse` gives for the text (a test
/// checks it, coordinate for coordinate).
///
/// Layout, little-endian: `MCGJ`, version 1, the label property (u16 length, UTF-8), the feature
/// count (u32); per feature a label flag (u8) and label (u32 length, UTF-8), points (u32 count,
/// then longitude and latitude as f64 each), lines (u32 count, each u32 count and positions),
/// polygons (u32 count, each u32 ring count, each ring u32 count and positions).
enum PreparedGeoJSON {
    /// The features in `pack` with labels from `labelProperty` (nil: no labels), or nil when the
    /// pack is not readable or holds another property's labels (the text is then parsed).
    static func features(_ pack: Data, labelProperty: String?) -> [ProjectedFeature]? {
        var reader = Reader(bytes: [UInt8](pack))
        guard reader.take(4) == Array("MCGJ".utf8), reader.byte() == 1,
              let stored = reader.text(lengthBytes: 2), let count = reader.u32() else { return nil }
        if let labelProperty, labelProperty != stored { return nil }
        var features: [ProjectedFeature] = []
        features.reserveCapacity(count)
        for _ in 0..<count {
            var feature = ProjectedFeature()
            guard let hasLabel = reader.byte() else { return nil }
            if hasLabel == 1 {
                guard let label = reader.text(lengthBytes: 4) else { return nil }
                if labelProperty != nil { feature.label = label }
            }
            guard let points = reader.positions(),
                  let lines = reader.list({ $0.positions() }),
                  let polygons = reader.list({ $0.list { $0.positions() } }) else { return nil }
            feature.points = points
            feature.lines = lines
            feature.polygons = polygons
            feature.computeBounds()
            if !feature.isEmpty { features.append(feature) }
        }
        return reader.atEnd ? features : nil
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ count: Int) -> [UInt8]? {
            guard count >= 0, bytes.count - index >= count else { return nil }
            defer { index += count }
            return Array(bytes[index..<index + count])
        }

        mutating func byte() -> UInt8? {
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return bytes[index]
        }

        /// A little-endian unsigned number of `width` bytes (at most 8), read in place.
        private mutating func littleEndian(_ width: Int) -> UInt64? {
            guard bytes.count - index >= width else { return nil }
            var value: UInt64 = 0
            for offset in stride(from: width - 1, through: 0, by: -1) { value = value << 8 | UInt64(bytes[index + offset]) }
            index += width
            return value
        }

        /// An unsigned number of `width` bytes (at most 4).
        mutating func unsigned(_ width: Int) -> Int? { littleEndian(width).map { Int($0) } }

        mutating func u32() -> Int? { unsigned(4) }

        /// A double; the caller has checked that the bytes are there.
        mutating func f64() -> Double { Double(bitPattern: littleEndian(8)!) }

        mutating func text(lengthBytes: Int) -> String? {
            guard let length = unsigned(lengthBytes), bytes.count - index >= length else { return nil }
            defer { index += length }
            return String(decoding: bytes[index..<index + length], as: UTF8.self)
        }

        /// A count, then that many positions, clamped and projected as `GeoJSONReader` and
        /// `GeoJSONFeatures` do.
        mutating func positions() -> [WorldPixel]? {
            guard let count = u32(), bytes.count - index >= count * 16 else { return nil }
            var result: [WorldPixel] = []
            result.reserveCapacity(count)
            for _ in 0..<count {
                let lon = f64(), lat = f64()
                let position = LonLat(lon: min(max(lon, -180), 180), lat: min(max(lat, -90), 90))
                result.append(WebMercator.worldPixel(from: position, zoom: 0))
            }
            return result
        }

        /// A count, then that many items read by `item`.
        mutating func list<T>(_ item: (inout Reader) -> T?) -> [T]? {
            guard let count = u32(), count <= bytes.count - index else { return nil }
            var result: [T] = []
            for _ in 0..<count {
                guard let value = item(&self) else { return nil }
                result.append(value)
            }
            return result
        }
    }
}
