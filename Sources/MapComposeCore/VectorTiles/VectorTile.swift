import Foundation

/// A decoded Mapbox Vector Tile (version 2.1): its layers, with features whose properties and
/// geometry are read on demand. Gzip'd tiles are inflated first.
public struct VectorTile: Sendable {
    /// Largest tile accepted, once inflated.
    public static let maxBytes = 64 << 20

    public let layers: [VectorTileLayer]
    /// The tile's bytes (inflated), which its layers read features from.
    public let byteCount: Int

    /// Decodes `data` (gzip'd or not).
    public init(_ data: Data) throws(VectorTileError) {
        var raw = data
        if Gzip.isCompressed(data) {
            do {
                raw = try Gzip.inflate(data, limit: Self.maxBytes)
            } catch {
                throw .malformed("gzip: \(error)")
            }
        }
        guard raw.count <= Self.maxBytes else { throw .tooLarge(bytes: raw.count, limit: Self.maxBytes) }
        let bytes = VectorTileBytes([UInt8](raw))
        byteCount = raw.count
        layers = try bytes.withReader(0..<raw.count) { (reader: inout ProtobufReader) throws(VectorTileError) in
            var layers: [VectorTileLayer] = []
            while !reader.atEnd {
                let (number, wire) = try reader.field()
                guard number == 3, wire == .lengthDelimited else {
                    try reader.skip(wire)
                    continue
                }
                var layer = ProtobufReader(reader.bytes, range: try reader.lengthDelimited())
                layers.append(try VectorTileLayer(&layer, bytes: bytes))
            }
            return layers
        }
    }

    /// The first layer called `name`.
    public func layer(_ name: String) -> VectorTileLayer? {
        layers.first { $0.name == name }
    }
}

/// A tile's bytes, shared by its layers for reading features on demand.
final class VectorTileBytes: Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Runs `body` with a reader over `range` of the bytes.
    func withReader<T>(_ range: Range<Int>, _ body: (inout ProtobufReader) throws(VectorTileError) -> T) throws(VectorTileError) -> T {
        let result = bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<T, VectorTileError> in
            var reader = ProtobufReader(raw, range: range)
            do throws(VectorTileError) {
                return .success(try body(&reader))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
