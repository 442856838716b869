/// One feature of a vector tile layer: its id, geometry type, and where its property tags and
/// geometry commands lie in the tile's bytes (decoded when asked for, so features a style
/// filters out cost no decoding).
public struct VectorTileFeature: Sendable {
    /// The geometry types of the format.
    public enum GeometryType: Int, Sendable {
        case unknown = 0, point = 1, lineString = 2, polygon = 3
    }

    public let id: UInt64?
    public let type: GeometryType
    let tags: Range<Int>
    let geometry: Range<Int>

    /// Reads a `Feature` message: id 1, packed tags 2, type 3, packed geometry 4.
    init(_ reader: inout ProtobufReader) throws(VectorTileError) {
        var id: UInt64?, type = GeometryType.unknown, tags = 0..<0, geometry = 0..<0
        while !reader.atEnd {
            let (number, wire) = try reader.field()
            switch (number, wire) {
            case (1, .varint): id = try reader.varint()
            case (2, .lengthDelimited): tags = try reader.lengthDelimited()
            case (3, .varint): type = GeometryType(rawValue: Int(clamping: try reader.varint())) ?? .unknown
            case (4, .lengthDelimited): geometry = try reader.lengthDelimited()
            default: try reader.skip(wire)
            }
        }
        self.id = id
        self.type = type
        self.tags = tags
        self.geometry = geometry
    }
}
