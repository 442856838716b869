/// Reads protocol buffer wire format from a byte range: field keys, varints, fixed-width
/// numbers and length-delimited fields, each checked against the end of its range. Enough for
/// the Mapbox Vector Tile schema, whose messages nest three deep.
struct ProtobufReader {
    enum WireType: UInt8 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, fixed32 = 5
    }

    let bytes: UnsafeRawBufferPointer
    private(set) var index: Int
    let end: Int

    init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>) {
        self.bytes = bytes
        index = range.lowerBound
        end = range.upperBound
    }

    var atEnd: Bool { index >= end }

    /// The next field's number and wire type.
    mutating func field() throws(VectorTileError) -> (number: Int, type: WireType) {
        let key = try varint()
        guard let type = WireType(rawValue: UInt8(key & 7)) else {
            throw .malformed("wire type \(key & 7) (groups or unknown) at byte \(index)")
        }
        guard key >> 3 > 0, key >> 3 <= UInt64(Int32.max) else { throw .malformed("field number \(key >> 3) at byte \(index)") }
        return (Int(key >> 3), type)
    }

    mutating func varint() throws(VectorTileError) -> UInt64 {
        var value: UInt64 = 0, shift: UInt64 = 0
        while index < end {
            let byte = bytes[index]
            index += 1
            guard shift < 63 || (shift == 63 && byte <= 1) else { throw .malformed("a varint longer than 64 bits at byte \(index)") }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        throw .malformed("the data ends inside a varint")
    }

    mutating func fixed32() throws(VectorTileError) -> UInt32 {
        guard end - index >= 4 else { throw .malformed("the data ends inside a 32-bit number") }
        let value = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[index + $1]) << (8 * UInt32($1)) }
        index += 4
        return value
    }

    mutating func fixed64() throws(VectorTileError) -> UInt64 {
        guard end - index >= 8 else { throw .malformed("the data ends inside a 64-bit number") }
        let value = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[index + $1]) << (8 * UInt64($1)) }
        index += 8
        return value
    }

    /// The byte range of a length-delimited field, skipped over.
    mutating func lengthDelimited() throws(VectorTileError) -> Range<Int> {
        let length = try varint()
        guard length <= UInt64(end - index) else {
            throw .malformed("a field of \(length) bytes at byte \(index) runs past the end of its message")
        }
        let range = index..<index + Int(length)
        index = range.upperBound
        return range
    }

    /// Skips a field of `type` that is not read.
    mutating func skip(_ type: WireType) throws(VectorTileError) {
        switch type {
        case .varint: _ = try varint()
        case .fixed64: _ = try fixed64()
        case .lengthDelimited: _ = try lengthDelimited()
        case .fixed32: _ = try fixed32()
        }
    }

    /// The UTF-8 text of a length-delimited field (invalid sequences replaced).
    mutating func string() throws(VectorTileError) -> String {
        let range = try lengthDelimited()
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
