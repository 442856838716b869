/// Writes a Mapbox Vector Tile (version 2.1): features added layer by layer, encoded as
/// `VectorTile` reads them back.
public struct VectorTileEncoder: Sendable {
    /// Tile units across the tile.
    public let extent: UInt32
    private var layers: [VectorTileLayerWriter] = []
    private var layerIndex: [String: Int] = [:]

    public init(extent: UInt32 = 4096) {
        precondition(extent > 0, "a vector tile's extent must be positive")
        self.extent = extent
    }

    /// Adds a feature to `layer` (layers are written in the order their first feature came).
    /// A feature whose geometry is all degenerate (see `VectorTileCommands`) is left out.
    public mutating func add(layer: String, properties: [(key: String, value: VectorTileValue)],
                             shape: VectorTileShape, id: UInt64? = nil) {
        guard let commands = VectorTileCommands(shape) else { return }
        let index: Int
        if let known = layerIndex[layer] {
            index = known
        } else {
            index = layers.count
            layers.append(VectorTileLayerWriter(name: layer))
            layerIndex[layer] = index
        }
        layers[index].add(properties: properties, commands: commands, id: id)
    }

    /// True when no feature has been kept.
    public var isEmpty: Bool { layers.isEmpty }

    /// The encoded tile: uncompressed protocol buffer bytes (`Gzip.compress` them for an
    /// archive that stores gzip'd tiles).
    public func encoded() -> [UInt8] {
        var tile = ProtobufWriter()
        for layer in layers { tile.lengthDelimited(3, layer.encoded(extent: extent)) }
        return tile.bytes
    }
}
