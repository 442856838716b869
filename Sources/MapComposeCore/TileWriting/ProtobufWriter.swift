/// Appends protocol buffer wire format to a byte array: field keys, varints, zig-zag and
/// fixed-width numbers, and length-delimited fields. The writing side of `ProtobufReader`;
/// its unsigned LEB128 varints are also those of PMTiles directories.
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    /// A field's key: its number and wire type.
    mutating func key(_ number: Int, _ type: ProtobufReader.WireType) {
        varint(UInt64(number) << 3 | UInt64(type.rawValue))
    }

    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// A signed number zig-zag encoded (0, -1, 1, -2 … as 0, 1, 2, 3 …).
    static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    /// `value` little-endian in 8 bytes.
    mutating func fixed64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// `value` little-endian in 4 bytes.
    mutating func fixed32(_ value: UInt32) {
        fixed64(UInt64(value))
        bytes.removeLast(4)
    }

    /// Bytes as they are (outside any field).
    mutating func raw(_ content: [UInt8]) {
        bytes += content
    }

    /// Field `number` holding `content` (a nested message, a string, or packed numbers).
    mutating func lengthDelimited(_ number: Int, _ content: [UInt8]) {
        key(number, .lengthDelimited)
        varint(UInt64(content.count))
        raw(content)
    }

    mutating func varintField(_ number: Int, _ value: UInt64) {
        key(number, .varint)
        varint(value)
    }

    /// Field `number` holding `values` as packed varints.
    mutating func packed(_ number: Int, _ values: [UInt32]) {
        var content = ProtobufWriter()
        for value in values { content.varint(UInt64(value)) }
        lengthDelimited(number, content.bytes)
    }
}
