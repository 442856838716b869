import Foundation

/// Reads the `coordinates` arrays of a GeoJSON text straight into positions, ahead of
/// `JSONSerialization`, which would make an object of every number and every position (a
/// million-point line took over 600 MB that way). Each array of positions becomes `[LonLat]`
/// (altitudes dropped), an array of those `[Any]`; the text keeps a short placeholder in its
/// place, so the rest of the document (small) parses as before. A `coordinates` value that is
/// not plain nested arrays of numbers is left in the text, for the reader to judge.
enum GeoJSONCoordinateScanner {
    /// The document with its coordinate arrays replaced by placeholders, and what they hold.
    static func extract(_ data: Data) -> (skeleton: Data, coordinates: [Any]) {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var skeleton = Data(), coordinates: [Any] = []
            var copied = 0, index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "\"") else { index += 1; continue }
                let end = stringEnd(bytes, from: index)
                let isKey = end - index == key.count + 2 && key.indices.allSatisfy { bytes[index + 1 + $0] == key[$0] }
                index = end
                guard isKey else { continue }
                var cursor = Cursor(bytes: bytes, index: end)
                cursor.skipSpace()
                guard cursor.take(UInt8(ascii: ":")) else { continue }
                cursor.skipSpace()
                let start = cursor.index
                guard cursor.peek == UInt8(ascii: "["), let value = cursor.array(), !(value is [Double]) else { continue }
                skeleton.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<start]))
                skeleton.append(contentsOf: Array(placeholder(coordinates.count).utf8))
                coordinates.append(value)
                copied = cursor.index
                index = cursor.index
            }
            guard !coordinates.isEmpty else { return (data, []) }
            skeleton.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
            return (skeleton, coordinates)
        }
    }

    /// The JSON string standing for the `index`th coordinates value.
    static func placeholder(_ index: Int) -> String { "\"\\u0000coordinates#\(index)\"" }

    /// The coordinates value a placeholder stands for, or the value itself.
    static func resolve(_ value: Any, in coordinates: [Any]) -> Any {
        guard let text = value as? String, text.hasPrefix(prefix), let index = Int(text.dropFirst(prefix.count)),
              coordinates.indices.contains(index) else { return value }
        return coordinates[index]
    }

    private static let key = Array("coordinates".utf8)
    /// What a placeholder reads as once parsed (its NUL escaped in the text).
    private static let prefix = "\u{0}coordinates#"

    /// The index just past the string starting at `start` (or the end of the data).
    private static func stringEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }

    /// A reading position in the text.
    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index: Int

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        /// An array of numbers (`[Double]`, a position), of positions (`[LonLat]`) or of such
        /// arrays (`[Any]`), nested at most `depth` deep (GeoJSON's deepest, a MultiPolygon,
        /// is 4); nil for anything else.
        mutating func array(depth: Int = 4) -> Any? {
            guard depth > 0, take(UInt8(ascii: "[")) else { return nil }
            skipSpace()
            if take(UInt8(ascii: "]")) { return [Any]() }
            if peek == UInt8(ascii: "[") { return list(depth: depth - 1) }
            var numbers: [Double] = []
            repeat {
                skipSpace()
                guard let value = number() else { return nil }
                numbers.append(value)
                skipSpace()
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]")) ? numbers : nil
        }

        /// The rest of an array of arrays, its `[` taken.
        private mutating func list(depth: Int) -> Any? {
            var positions: [LonLat] = [], lists: [Any] = []
            repeat {
                skipSpace()
                switch array(depth: depth) {
                case let position as [Double] where lists.isEmpty && position.count >= 2:
                    positions.append(LonLat(lon: position[0], lat: position[1]))
                case let list? where positions.isEmpty && !(list is [Double]):
                    lists.append(list)
                default:
                    return nil
                }
                skipSpace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "]")) else { return nil }
            return positions.isEmpty ? lists : positions
        }

        /// A JSON number; nil when the text there is not one. Numbers of at most 15 significant
        /// digits and a power of ten within ±22 (all of GeoJSON's usual coordinates) are one
        /// exact multiplication or division of two exactly held doubles, so correctly rounded
        /// as strtod's are (Clinger's fast path); the rest go to strtod.
        private mutating func number() -> Double? {
            let start = index
            let negative = take(UInt8(ascii: "-"))
            let integer = index
            var mantissa: UInt64 = 0, scale = 0, exact = true
            guard digits(into: &mantissa, exact: &exact) > 0, bytes[integer] != UInt8(ascii: "0") || index == integer + 1 else {
                return nil
            }
            if take(UInt8(ascii: ".")) {
                let fraction = digits(into: &mantissa, exact: &exact)
                guard fraction > 0 else { return nil }
                scale = -fraction
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                index += 1
                let negativeExponent = !take(UInt8(ascii: "+")) && take(UInt8(ascii: "-"))
                var exponent: UInt64 = 0, exponentExact = true
                guard digits(into: &exponent, exact: &exponentExact) > 0 else { return nil }
                if !exponentExact || exponent > 1000 { exact = false } else { scale += negativeExponent ? -Int(exponent) : Int(exponent) }
            }
            let length = index - start
            if exact, mantissa <= 1 << 53, (-22...22).contains(scale) {
                let value = scale < 0 ? Double(mantissa) / Self.powersOfTen[-scale] : Double(mantissa) * Self.powersOfTen[scale]
                return negative ? -value : value
            }
            guard length < 64 else { return nil }
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { text in
                for offset in 0..<length { text[offset] = CChar(bitPattern: bytes[start + offset]) }
                text[length] = 0
                return strtod(text.baseAddress!, nil)
            }
        }

        /// 10⁰ … 10²², each exactly a double.
        private static let powersOfTen: [Double] = (0...22).map { exponent in
            (0..<exponent).reduce(1.0) { value, _ in value * 10 }
        }

        /// Skips decimal digits, accumulating them into `value` while it fits a UInt64; `exact`
        /// turns false past that. Returns how many digits there were.
        private mutating func digits(into value: inout UInt64, exact: inout Bool) -> Int {
            let start = index
            while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                if value <= (UInt64.max - 9) / 10 {
                    value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
                } else {
                    exact = false
                }
                index += 1
            }
            return index - start
        }

    }
}
