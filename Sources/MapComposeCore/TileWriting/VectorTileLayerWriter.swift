/// One layer being written: its features already encoded, and its keys and values, each kept
/// once and referred to by index from the features' tags.
struct VectorTileLayerWriter {
    /// A value as a dictionary key: its type and exact bits (so 0.0 and -0.0, or 1 as int and
    /// as uint, stay apart, and NaN finds itself).
    private enum ValueKey: Hashable {
        case string(String), double(UInt64), int(Int64), uint(UInt64), bool(Bool)

        init(_ value: VectorTileValue) {
            switch value {
            case .string(let text): self = .string(text)
            case .double(let number): self = .double(number.bitPattern)
            case .int(let number): self = .int(number)
            case .uint(let number): self = .uint(number)
            case .bool(let flag): self = .bool(flag)
            }
        }
    }

    let name: String
    private var features: [[UInt8]] = []
    private var keys: [String] = []
    private var keyIndex: [String: UInt32] = [:]
    private var values: [VectorTileValue] = []
    private var valueIndex: [ValueKey: UInt32] = [:]

    init(name: String) {
        self.name = name
    }

    /// Adds a feature (message fields: id 1, packed tags 2, type 3, packed geometry 4).
    mutating func add(properties: [(key: String, value: VectorTileValue)], commands: VectorTileCommands, id: UInt64?) {
        var tags: [UInt32] = []
        tags.reserveCapacity(properties.count * 2)
        for (key, value) in properties {
            tags.append(index(of: key))
            tags.append(index(of: value))
        }
        var feature = ProtobufWriter()
        if let id { feature.varintField(1, id) }
        if !tags.isEmpty { feature.packed(2, tags) }
        feature.varintField(3, UInt64(commands.type.rawValue))
        feature.packed(4, commands.integers)
        features.append(feature.bytes)
    }

    private mutating func index(of key: String) -> UInt32 {
        if let known = keyIndex[key] { return known }
        let index = UInt32(keys.count)
        keys.append(key)
        keyIndex[key] = index
        return index
    }

    private mutating func index(of value: VectorTileValue) -> UInt32 {
        let key = ValueKey(value)
        if let known = valueIndex[key] { return known }
        let index = UInt32(values.count)
        values.append(value)
        valueIndex[key] = index
        return index
    }

    /// The `Layer` message: name 1, features 2, keys 3, values 4, extent 5, version 15 (2).
    func encoded(extent: UInt32) -> [UInt8] {
        var layer = ProtobufWriter()
        layer.lengthDelimited(1, Array(name.utf8))
        for feature in features { layer.lengthDelimited(2, feature) }
        for key in keys { layer.lengthDelimited(3, Array(key.utf8)) }
        for value in values { layer.lengthDelimited(4, Self.encoded(value)) }
        layer.varintField(5, UInt64(extent))
        layer.varintField(15, 2)
        return layer.bytes
    }

    /// The `Value` message: string 1, double 3, int 4 (or sint 6 when negative), uint 5, bool 7.
    static func encoded(_ value: VectorTileValue) -> [UInt8] {
        var message = ProtobufWriter()
        switch value {
        case .string(let text): message.lengthDelimited(1, Array(text.utf8))
        case .double(let number):
            message.key(3, .fixed64)
            message.fixed64(number.bitPattern)
        case .int(let number) where number < 0: message.varintField(6, ProtobufWriter.zigzag(number))
        case .int(let number): message.varintField(4, UInt64(number))
        case .uint(let number): message.varintField(5, number)
        case .bool(let flag): message.varintField(7, flag ? 1 : 0)
        }
        return message.bytes
    }
}
