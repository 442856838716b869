/// Everything a PMTiles version 3 header holds, for writing one: where the sections lie,
/// counts, compression, tile type, zoom levels, bounds and center (degrees, stored as
/// integers of 10⁻⁷ degrees).
struct PMTilesHeaderFields {
    var rootDirectory: Range<UInt64>
    var metadata: Range<UInt64>
    var leafDirectories: Range<UInt64>
    var tileData: Range<UInt64>
    var addressedTiles: UInt64
    var tileEntries: UInt64
    var tileContents: UInt64
    /// Whether tile contents lie in tile ID order (a content used again points back).
    var clustered: Bool
    var internalCompression: PMTilesHeader.Compression
    var tileCompression: PMTilesHeader.Compression
    var tileType: PMTilesHeader.TileType
    var minZoom: Int
    var maxZoom: Int
    var bounds: (west: Double, south: Double, east: Double, north: Double)
    var center: (longitude: Double, latitude: Double, zoom: Int)

    /// The 127 bytes, little-endian, in the order `PMTilesHeader` reads them.
    func encoded() -> [UInt8] {
        var writer = ProtobufWriter()
        writer.raw(Array("PMTiles".utf8) + [3])
        func e7(_ degrees: Double) {
            // ±214°: the widest that fits 32 bits.
            let clamped = degrees.isNaN ? 0 : min(214, max(-214, degrees))
            writer.fixed32(UInt32(bitPattern: Int32((clamped * 1e7).rounded())))
        }
        for section in [rootDirectory, metadata, leafDirectories, tileData] {
            writer.fixed64(section.lowerBound)
            writer.fixed64(UInt64(section.count))
        }
        for count in [addressedTiles, tileEntries, tileContents] { writer.fixed64(count) }
        writer.raw([clustered ? 1 : 0, internalCompression.rawValue, tileCompression.rawValue, tileType.rawValue,
                    UInt8(minZoom), UInt8(maxZoom)])
        e7(bounds.west)
        e7(bounds.south)
        e7(bounds.east)
        e7(bounds.north)
        writer.raw([UInt8(center.zoom)])
        e7(center.longitude)
        e7(center.latitude)
        let bytes = writer.bytes
        assert(bytes.count == PMTilesHeader.length)
        return bytes
    }
}
