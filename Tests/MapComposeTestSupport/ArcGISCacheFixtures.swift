import Foundation
import MapComposeCore

/// ArcGIS caches made on the fly for tests: conf.xml and conf.cdi text, and compact bundles of
/// both versions laid out as the formats are documented (so tests can also damage them).
public enum ArcGISCacheFixtures {
    /// One tile to put in a cache: level ID, row, column and bytes.
    public struct Tile {
        public let level: Int
        public let row: Int
        public let column: Int
        public let data: Data

        public init(level: Int, row: Int, column: Int, data: Data) {
            self.level = level
            self.row = row
            self.column = column
            self.data = data
        }
    }

    /// The standard 256-px Web Mercator resolutions of levels 0…`count - 1`.
    public static func webMercatorResolutions(_ count: Int) -> [Double] {
        (0..<count).map { 2 * WebMercator.originShift / (256 * exp2(Double($0))) }
    }

    /// A conf.xml. `lods` are (LevelID, resolution); with `scaleOnly` each LOD gives only its
    /// Scale (resolution × DPI × 39.37). `wkid`/`latestWKID` nil leave the element out.
    public static func confXML(storage: String = "esriMapCacheStorageModeExploded", format: String = "PNG",
                               tileSize: Int = 256, origin: (Double, Double) = (-WebMercator.originShift, WebMercator.originShift),
                               lods: [(Int, Double)] = Array(zip(0..., webMercatorResolutions(6))),
                               wkid: Int? = 102100, latestWKID: Int? = 3857, dpi: Int = 96,
                               scaleOnly: Bool = false, packetSize: Int = 128) -> String {
        let lodText = lods.map { id, resolution in
            let scale = resolution * Double(dpi) * 39.37
            return "<LODInfo xsi:type='typens:LODInfo'><LevelID>\(id)</LevelID><Scale>\(scale)</Scale>"
                + (scaleOnly ? "" : "<Resolution>\(resolution)</Resolution>") + "</LODInfo>"
        }.joined()
        let reference = "<SpatialReference xsi:type='typens:ProjectedCoordinateSystem'>"
            + (wkid.map { "<WKID>\($0)</WKID>" } ?? "") + (latestWKID.map { "<LatestWKID>\($0)</LatestWKID>" } ?? "")
            + "</SpatialReference>"
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <CacheInfo xsi:type='typens:CacheInfo' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance' \
            xmlns:typens='http://www.esri.com/schemas/ArcGIS/10.3'>
            <TileCacheInfo xsi:type='typens:TileCacheInfo'>\(reference)
            <TileOrigin xsi:type='typens:PointN'><X>\(origin.0)</X><Y>\(origin.1)</Y></TileOrigin>
            <TileCols>\(tileSize)</TileCols><TileRows>\(tileSize)</TileRows><DPI>\(dpi)</DPI>
            <LODInfos xsi:type='typens:ArrayOfLODInfo'>\(lodText)</LODInfos>
            </TileCacheInfo>
            <TileImageInfo xsi:type='typens:TileImageInfo'><CacheTileFormat>\(format)</CacheTileFormat></TileImageInfo>
            <CacheStorageInfo xsi:type='typens:CacheStorageInfo'><StorageFormat>\(storage)</StorageFormat>\
            <PacketSize>\(packetSize)</PacketSize></CacheStorageInfo>
            </CacheInfo>
            """
    }

    /// A conf.cdi with the envelope `rect` (EPSG:3857 metres).
    public static func confCDI(_ rect: MetersRect) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <EnvelopeN xsi:type='typens:EnvelopeN' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance' \
        xmlns:typens='http://www.esri.com/schemas/ArcGIS/10.3'>
        <XMin>\(rect.minX)</XMin><YMin>\(rect.minY)</YMin><XMax>\(rect.maxX)</XMax><YMax>\(rect.maxY)</YMax>
        </EnvelopeN>
        """
    }

    static func littleEndian(_ value: UInt64, width: Int) -> Data {
        Data((0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) })
    }

    /// A version-1 bundle and its `.bundlx` holding `tiles` (row, column within the bundle, bytes).
    /// Empty slots point at a 4-byte zero size, as ArcGIS and MapProxy write them.
    public static func bundleV1(_ tiles: [(row: Int, column: Int, data: Data)]) -> (bundle: Data, bundlx: Data) {
        var bundle = Data(count: 60)          // header (contents not read)
        let empty = UInt64(bundle.count)
        bundle.append(Data(count: 4))
        var offsets = [UInt64](repeating: empty, count: 128 * 128)
        for tile in tiles {
            offsets[(tile.column % 128) * 128 + tile.row % 128] = UInt64(bundle.count)
            bundle.append(littleEndian(UInt64(tile.data.count), width: 4))
            bundle.append(tile.data)
        }
        var index = Data(count: 16)
        for offset in offsets { index.append(littleEndian(offset, width: 5)) }
        index.append(Data(count: 16))
        return (bundle, index)
    }

    /// A version-2 bundle holding `tiles` (row, column within the bundle, bytes).
    public static func bundleV2(_ tiles: [(row: Int, column: Int, data: Data)]) -> Data {
        var entries = [UInt64](repeating: 4, count: 128 * 128)
        var body = Data()
        let start = UInt64(64 + 128 * 128 * 8)
        for tile in tiles {
            body.append(littleEndian(UInt64(tile.data.count), width: 4))
            entries[(tile.row % 128) * 128 + tile.column % 128] = (start + UInt64(body.count)) | UInt64(tile.data.count) << 40
            body.append(tile.data)
        }
        var bundle = Data(count: 64)
        for entry in entries { bundle.append(littleEndian(entry, width: 8)) }
        return bundle + body
    }

    /// Writes a layer folder under `folder` (conf.xml, conf.cdi when `extent` is given, and the
    /// tiles in `storage`'s layout) and returns the layer folder.
    @discardableResult
    public static func writeCache(in folder: TemporaryFolder, name: String = "Layers",
                                  storage: ArcGISStorageFormat, format: String = "PNG",
                                  conf: String? = nil, extent: MetersRect? = nil, tiles: [Tile]) throws -> URL {
        let layer = "\(name)/"
        try folder.write(conf ?? confXML(storage: storage.rawValue, format: format), to: layer + "conf.xml")
        if let extent { try folder.write(confCDI(extent), to: layer + "conf.cdi") }
        switch storage {
        case .exploded:
            for tile in tiles {
                let ext = format == "JPEG" ? "jpg" : "png"
                try folder.write(tile.data, to: layer + String(format: "_alllayers/L%02d/R%08x/C%08x.", tile.level,
                                                                tile.row, tile.column) + ext)
            }
        case .compact, .compactV2:
            let groups = Dictionary(grouping: tiles) { [$0.level, $0.row / 128 * 128, $0.column / 128 * 128] }
            for (key, members) in groups {
                let base = layer + String(format: "_alllayers/L%02d/R%04xC%04x", key[0], key[1], key[2])
                let contents = members.map { (row: $0.row, column: $0.column, data: $0.data) }
                if storage == .compact {
                    let (bundle, bundlx) = bundleV1(contents)
                    try folder.write(bundle, to: base + ".bundle")
                    try folder.write(bundlx, to: base + ".bundlx")
                } else {
                    try folder.write(bundleV2(contents), to: base + ".bundle")
                }
            }
        }
        return folder.url.appendingPathComponent(name)
    }
}
