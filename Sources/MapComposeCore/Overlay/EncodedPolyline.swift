/// Google's encoded polyline format (precision 1e-5): latitude and longitude deltas as
/// zig-zag varints of 5-bit groups, each character offset by 63.
public enum EncodedPolyline {
    /// The points an encoded polyline holds; throws for characters outside `?`…`~` or a
    /// value cut short.
    public static func decode(_ text: String, precision: Int = 5) throws(OverlayError) -> [LonLat] {
        let factor = pow10(precision)
        var values: [Int] = [], value = 0, shift = 0
        for (offset, byte) in text.utf8.enumerated() {
            guard (63...126).contains(byte) else {
                throw OverlayError("encoded polyline: character \(offset + 1) '\(Character(Unicode.Scalar(byte)))' "
                                   + "is not part of the format (expected ? … ~)")
            }
            let chunk = Int(byte) - 63
            guard shift <= 30 else { throw OverlayError("encoded polyline: a value at character \(offset + 1) is too long") }
            value |= (chunk & 0x1F) << shift
            shift += 5
            if chunk < 0x20 {
                values.append(value & 1 == 1 ? ~(value >> 1) : value >> 1)
                value = 0
                shift = 0
            }
        }
        guard shift == 0, values.count % 2 == 0 else {
            throw OverlayError("encoded polyline: it ends in the middle of a point (was it cut short?)")
        }
        var lat = 0, lon = 0, points: [LonLat] = []
        for index in stride(from: 0, to: values.count, by: 2) {
            lat += values[index]
            lon += values[index + 1]
            points.append(LonLat(lon: Double(lon) / factor, lat: Double(lat) / factor))
        }
        return points
    }

    /// Encodes points (the inverse of `decode`).
    public static func encode(_ points: [LonLat], precision: Int = 5) -> String {
        let factor = pow10(precision)
        var text = "", lastLat = 0, lastLon = 0
        func append(_ delta: Int) {
            var v = delta < 0 ? ~(delta << 1) : delta << 1
            while v >= 0x20 {
                text.unicodeScalars.append(Unicode.Scalar(UInt8((0x20 | (v & 0x1F)) + 63)))
                v >>= 5
            }
            text.unicodeScalars.append(Unicode.Scalar(UInt8(v + 63)))
        }
        for p in points {
            let lat = Int((p.lat * factor).rounded()), lon = Int((p.lon * factor).rounded())
            append(lat - lastLat)
            append(lon - lastLon)
            lastLat = lat
            lastLon = lon
        }
        return text
    }

    private static func pow10(_ n: Int) -> Double {
        (0..<max(0, n)).reduce(1.0) { value, _ in value * 10 }
    }
}
