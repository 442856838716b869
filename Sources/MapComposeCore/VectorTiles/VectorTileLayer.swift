/// One layer of a vector tile: its name, extent (tile units per side), keys and values, and
/// features.
public struct VectorTileLayer: Sendable {
    public let name: String
    /// Coordinates span 0 ..< extent across the tile (4096 unless the layer says otherwise).
    public let extent: Int
    public let version: Int
    public let features: [VectorTileFeature]
    let keys: [String]
    let values: [VectorTileValue?]
    let bytes: VectorTileBytes

    /// Reads a `Layer` message: name 1, features 2, keys 3, values 4, extent 5, version 15.
    init(_ reader: inout ProtobufReader, bytes: VectorTileBytes) throws(VectorTileError) {
        var name: String?, extent = 4096, version = 1
        var features: [VectorTileFeature] = [], keys: [String] = [], values: [VectorTileValue?] = []
        while !reader.atEnd {
            let (number, wire) = try reader.field()
            switch (number, wire) {
            case (1, .lengthDelimited): name = try reader.string()
            case (2, .lengthDelimited):
                var feature = ProtobufReader(reader.bytes, range: try reader.lengthDelimited())
                features.append(try VectorTileFeature(&feature))
            case (3, .lengthDelimited): keys.append(try reader.string())
            case (4, .lengthDelimited):
                var value = ProtobufReader(reader.bytes, range: try reader.lengthDelimited())
                values.append(try VectorTileValue(&value))
            case (5, .varint):
                let value = try reader.varint()
                guard value > 0, value <= 1 << 24 else { throw .malformed("layer extent \(value) is not within 1…16777216") }
                extent = Int(value)
            case (15, .varint): version = Int(clamping: try reader.varint())
            default: try reader.skip(wire)
            }
        }
        guard let name else { throw .malformed("a layer has no name") }
        self.name = name
        self.extent = extent
        self.version = version
        self.features = features
        self.keys = keys
        self.values = values
        self.bytes = bytes
    }

    /// The feature's properties, by key. A tag naming a key or value the layer lacks is an error.
    public func properties(of feature: VectorTileFeature) throws(VectorTileError) -> [String: VectorTileValue] {
        var properties: [String: VectorTileValue] = [:]
        try bytes.withReader(feature.tags) { (reader: inout ProtobufReader) throws(VectorTileError) in
            while !reader.atEnd {
                let key = try reader.varint()
                guard !reader.atEnd else { throw .malformed("layer '\(name)': a feature's tags are not in pairs") }
                let value = try reader.varint()
                guard key < UInt64(keys.count), value < UInt64(values.count) else {
                    throw .malformed("layer '\(name)': a feature's tag \(key)=\(value) is past its \(keys.count) keys "
                                     + "or \(values.count) values")
                }
                if let known = values[Int(value)] { properties[keys[Int(key)]] = known }
            }
        }
        return properties
    }

    /// The feature's geometry in tile units (see `VectorTileGeometry`).
    public func geometry(of feature: VectorTileFeature) throws(VectorTileError) -> VectorTileGeometry {
        try bytes.withReader(feature.geometry) { (reader: inout ProtobufReader) throws(VectorTileError) in
            try VectorTileGeometry(&reader, type: feature.type)
        }
    }
}
