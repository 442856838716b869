/// A feature property's value in a vector tile.
public enum VectorTileValue: Sendable, Equatable, CustomStringConvertible {
    case string(String)
    case double(Double)
    case int(Int64)
    case uint(UInt64)
    case bool(Bool)

    /// Reads a `Value` message (string 1, float 2, double 3, int 4, uint 5, sint 6, bool 7);
    /// the last field given wins, an empty message is nil.
    init?(_ reader: inout ProtobufReader) throws(VectorTileError) {
        var value: VectorTileValue?
        while !reader.atEnd {
            let (number, type) = try reader.field()
            switch (number, type) {
            case (1, .lengthDelimited): value = .string(try reader.string())
            case (2, .fixed32): value = .double(Double(Float(bitPattern: try reader.fixed32())))
            case (3, .fixed64): value = .double(Double(bitPattern: try reader.fixed64()))
            case (4, .varint): value = .int(Int64(bitPattern: try reader.varint()))
            case (5, .varint): value = .uint(try reader.varint())
            case (6, .varint):
                let raw = try reader.varint()
                value = .int(Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1))
            case (7, .varint): value = .bool(try reader.varint() != 0)
            default: try reader.skip(type)
            }
        }
        guard let value else { return nil }
        self = value
    }

    /// The value as a number, when it is one (booleans are not).
    public var number: Double? {
        switch self {
        case .double(let value): return value
        case .int(let value): return Double(value)
        case .uint(let value): return Double(value)
        case .string, .bool: return nil
        }
    }

    public var description: String {
        switch self {
        case .string(let text): return text
        case .double(let value): return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .int(let value): return String(value)
        case .uint(let value): return String(value)
        case .bool(let value): return String(value)
        }
    }
}
