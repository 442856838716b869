import Foundation

/// What an ArcGIS cache's conf.xml says: its coordinate system, tile grid (origin, tile size,
/// levels of detail), tile image format and storage format.
public struct ArcGISCacheInfo: Sendable, Equatable {
    /// One level of detail (`LODInfo`).
    public struct LevelOfDetail: Sendable, Equatable {
        /// The number in the level's folder name (`L{levelID:02d}`).
        public let levelID: Int
        public let scale: Double?
        /// Metres per pixel: `Resolution`, or `Scale / (DPI × 39.37)` when only the scale is given.
        public let resolution: Double
    }

    /// Well-known IDs of Web Mercator (auxiliary sphere), the only coordinate system drawn.
    public static let webMercatorWKIDs: Set<Int> = [102100, 102113, 3857, 900913]
    /// Inches per metre in ArcGIS's scale-to-resolution rule.
    public static let inchesPerMetre = 39.37

    /// `SpatialReference/WKID` and `LatestWKID` (at least one is given, and one of them is Web Mercator).
    public let wkid: Int?
    public let latestWKID: Int?
    /// `TileOrigin`: the grid's top-left corner in EPSG:3857 metres.
    public let originX: Double
    public let originY: Double
    /// `TileCols` × `TileRows`: tile size in pixels.
    public let tileWidth: Int
    public let tileHeight: Int
    /// `DPI` (96 when absent), used to turn a scale into a resolution.
    public let dpi: Double
    /// Levels, coarsest first.
    public let levels: [LevelOfDetail]
    /// `CacheTileFormat`.
    public let tileFormat: ArcGISTileFormat
    /// `StorageFormat` (exploded when conf.xml has no `CacheStorageInfo`, as before ArcGIS 10).
    public let storage: ArcGISStorageFormat
    /// Tiles along a bundle's side (128 unless said otherwise).
    public let packetSize: Int

    /// Reads conf.xml's bytes; `path` names the file in errors.
    public init(xml data: Data, path: String) throws(ArcGISCacheError) {
        func fail(_ reason: String) -> ArcGISCacheError { ArcGISCacheError(path: path, reason: reason) }
        let root: XMLTreeElement
        do {
            root = try XMLTreeElement.parse(data)
        } catch {
            throw fail(error.description)
        }
        guard root.name == "CacheInfo" else { throw fail("the root element is <\(root.name)>, not <CacheInfo>") }
        guard let tiles = root.child("TileCacheInfo") else { throw fail("no <TileCacheInfo>") }
        let reader = XMLValueReader { ArcGISCacheError(path: path, reason: $0) }

        let reference = tiles.child("SpatialReference")
        wkid = try reader.optionalInteger(reference?.child("WKID"), "SpatialReference/WKID")
        latestWKID = try reader.optionalInteger(reference?.child("LatestWKID"), "SpatialReference/LatestWKID")
        guard wkid != nil || latestWKID != nil else {
            throw fail("<SpatialReference> names no WKID or LatestWKID: the coordinate system is unknown")
        }
        guard [wkid, latestWKID].contains(where: { $0.map(Self.webMercatorWKIDs.contains) ?? false }) else {
            let named = [wkid, latestWKID].compactMap { $0 }.map(String.init).joined(separator: " / ")
            throw fail("the cache's coordinate system is WKID \(named); only Web Mercator "
                       + "(WKID 102100, 102113, 3857, 900913) can be drawn (no reprojection)")
        }
        originX = try reader.number(tiles.path("TileOrigin", "X"), "TileOrigin/X")
        originY = try reader.number(tiles.path("TileOrigin", "Y"), "TileOrigin/Y")
        tileWidth = try reader.integer(tiles.child("TileCols"), "TileCols", in: 1...4096)
        tileHeight = try reader.integer(tiles.child("TileRows"), "TileRows", in: 1...4096)
        if let element = tiles.child("DPI") {
            dpi = try reader.number(element, "DPI", in: 1...10_000)
        } else {
            dpi = 96
        }
        guard let lodInfos = tiles.child("LODInfos") else { throw fail("no <LODInfos>") }
        var levels: [LevelOfDetail] = []
        for (index, lod) in lodInfos.children("LODInfo").enumerated() {
            let key = "LODInfos/LODInfo[\(index)]"
            let id = try reader.integer(lod.child("LevelID"), "\(key)/LevelID", in: 0...99)
            let scale = try reader.optionalNumber(lod.child("Scale"), "\(key)/Scale")
            let resolution: Double
            if let given = try reader.optionalNumber(lod.child("Resolution"), "\(key)/Resolution") {
                resolution = given
            } else if let scale {
                resolution = scale / (dpi * Self.inchesPerMetre)
            } else {
                throw fail("\(key) (LevelID \(id)) has neither <Resolution> nor <Scale>")
            }
            guard resolution.isFinite, resolution > 0 else {
                throw fail("\(key) (LevelID \(id)): resolution \(resolution) is not a positive number")
            }
            levels.append(LevelOfDetail(levelID: id, scale: scale, resolution: resolution))
        }
        guard !levels.isEmpty else { throw fail("<LODInfos> lists no <LODInfo>") }
        levels.sort { $0.resolution > $1.resolution }
        for (a, b) in zip(levels, levels.dropFirst()) {
            if a.levelID == b.levelID { throw fail("LevelID \(a.levelID) is listed twice") }
            if a.resolution <= b.resolution * (1 + 1e-12) {
                throw fail("LevelIDs \(a.levelID) and \(b.levelID) have the same resolution \(a.resolution)")
            }
        }
        self.levels = levels

        let formatText = try reader.text(root.path("TileImageInfo", "CacheTileFormat"), "TileImageInfo/CacheTileFormat")
        guard let format = ArcGISTileFormat(rawValue: formatText.uppercased()) else {
            throw fail("unsupported tile format '\(formatText)' (expected one of: "
                       + ArcGISTileFormat.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        tileFormat = format
        let storageInfo = root.child("CacheStorageInfo")
        if let storageText = storageInfo?.child("StorageFormat")?.text {
            guard let storage = ArcGISStorageFormat(rawValue: storageText) else {
                throw fail("unsupported storage format '\(storageText)' (expected one of: "
                           + ArcGISStorageFormat.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            self.storage = storage
        } else {
            // Caches older than ArcGIS 10 have no CacheStorageInfo: they are exploded.
            storage = .exploded
        }
        if let element = storageInfo?.child("PacketSize") {
            // Exploded caches may say 0 (GeoWebCache does): the size only means something for bundles.
            packetSize = try reader.integer(element, "CacheStorageInfo/PacketSize", in: 0...4096)
        } else {
            packetSize = 128
        }
        if storage != .exploded, packetSize != 128 {
            throw fail("PacketSize \(packetSize): only bundles of 128×128 tiles can be read")
        }
    }

    /// The cache's tile grid. Each level's matrix reaches from the origin to the east and south
    /// edges of the Web Mercator world, so a cache whose origin is the world's top-left corner
    /// and whose levels halve is the standard grid, and wraps around the world.
    public func matrix(path: String) throws(ArcGISCacheError) -> TileMatrix {
        let world = WebMercator.originShift
        let spanX = world - originX, spanY = originY + world
        guard spanX > 0, spanY > 0 else {
            throw ArcGISCacheError(path: path, reason: "TileOrigin \(originX.exactText),\(originY.exactText) lies east or "
                                   + "south of the Web Mercator world: no tile of the cache can be drawn")
        }
        func count(_ span: Double, _ tileSpan: Double) -> Int {
            let tiles = (span / tileSpan - 1e-6).rounded(.up)
            return Int(min(max(tiles, 1), Double(1 << TileMatrix.maxLevel)))
        }
        let gridLevels = levels.map { lod in
            TileMatrix.Level(resolution: lod.resolution,
                             matrixWidth: count(spanX, Double(tileWidth) * lod.resolution),
                             matrixHeight: count(spanY, Double(tileHeight) * lod.resolution))
        }
        let signature = ([originX, originY] + levels.map(\.resolution)).map(\.exactText).joined(separator: ",")
        do {
            return try TileMatrix(identity: "arcgis-\(tileWidth)x\(tileHeight)-\(ContentDigest.hex(of: Data(signature.utf8)))",
                                  originX: originX, originY: originY, tileWidth: tileWidth, tileHeight: tileHeight,
                                  levels: gridLevels)
        } catch {
            throw ArcGISCacheError(path: path, reason: error.reason)
        }
    }
}
