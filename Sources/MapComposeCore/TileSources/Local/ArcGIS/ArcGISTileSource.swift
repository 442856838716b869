import Foundation

/// Tiles of an ArcGIS Server cache on disk (exploded, compact v1 or compact v2), on the
/// cache's own grid (any Web Mercator LOD set, tile size and origin), read with no server.
public struct ArcGISTileSource: TileSource {
    public let info: TileSourceInfo
    public let folder: ArcGISCacheFolder
    public let cacheInfo: ArcGISCacheInfo
    /// The LevelID of each grid level (grid levels are the LODs, coarsest first).
    let levelIDs: [Int]
    let bundles: BundleHandles?

    /// Opens the cache at `spec.folder`: reads conf.xml (and conf.cdi, if there), checks the
    /// coordinate system and storage format. Bundles are opened when first read.
    public init(spec: ArcGISSourceSpec) throws(ArcGISCacheError) {
        folder = try ArcGISCacheFolder(locating: spec.folder)
        let confPath = folder.confXML.path
        let confData: Data
        do {
            confData = try PathStatus.read(folder.confXML)
        } catch {
            throw ArcGISCacheError(path: confPath, reason: error.reason)
        }
        cacheInfo = try ArcGISCacheInfo(xml: confData, path: confPath)
        let matrix = try cacheInfo.matrix(path: confPath)
        levelIDs = cacheInfo.levels.map(\.levelID)

        var notes: [String] = []
        if let choice = folder.choice { notes.append(choice) }
        var bounds: GeoBounds?
        if PathStatus(folder.confCDI) == .missing {
            notes.append("no conf.cdi (a cache from ArcGIS 9.3.1 or older): the full extent of the grid is used")
        } else {
            let cdiData: Data
            do {
                cdiData = try PathStatus.read(folder.confCDI)
            } catch {
                throw ArcGISCacheError(path: folder.confCDI.path, reason: error.reason)
            }
            let extent = try ArcGISCacheExtent(xml: cdiData, path: folder.confCDI.path)
            guard let box = extent.bounds else {
                throw ArcGISCacheError(path: folder.confCDI.path,
                                       reason: "the envelope \(extent.rect) lies outside the Web Mercator world")
            }
            bounds = box
        }
        let present = folder.levelIDsPresent()
        let ids = cacheInfo.levels.map(\.levelID)
        let levels = ids.indices.filter { present.contains(ids[$0]) }
        let native = levels.isEmpty ? matrix.levelRange : levels.min()!...levels.max()!
        bundles = cacheInfo.storage == .exploded ? nil : BundleHandles(version: cacheInfo.storage)
        info = TileSourceInfo(identity: "arcgis:\(folder.layer.standardizedFileURL.path)@\(matrix.identity)",
                              matrix: matrix, nativeZoom: native, bounds: bounds, notes: notes)
    }

    public func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        await TileFileReader.perform { readNow(coord) }
    }

    public var localReader: LocalReader? {
        { coord, _ in readNow(coord) }
    }

    /// Reads the tile at `coord` from its bundle or its file, blocking the caller.
    func readNow(_ coord: TileCoord) -> TileFetch {
        guard levelIDs.indices.contains(coord.z) else {
            return TileFetch(.missing(.absent), origin: folder.tiles.path)
        }
        let level = String(format: "L%02d", levelIDs[coord.z])
        if let bundles {
            return Self.bundleTile(bundles, level: folder.tiles.appendingPathComponent(level).path, row: coord.y, column: coord.x)
        }
        return explodedTile(level: level, row: coord.y, column: coord.x)
    }

    /// `_alllayers/L{level}/R{row:08x}/C{col:08x}.{ext}`, hex in lower case, then upper case;
    /// each of the format's extensions in turn.
    private func explodedTile(level: String, row: Int, column: Int) -> TileFetch {
        let levelFolder = folder.tiles.appendingPathComponent(level).path
        var first: String?
        for upper in [false, true] {
            let digits = upper ? "%08X" : "%08x"
            for ext in cacheInfo.tileFormat.fileExtensions {
                let path = "\(levelFolder)/R\(String(format: digits, row))/C\(String(format: digits, column)).\(ext)"
                if first == nil { first = path }
                switch TileFileReader.readNow(path) {
                case .data(let data): return TileFetch(.found(.encoded(data)), origin: path)
                case .absent: continue
                case .failed(let reason): return TileFetch(.missing(.readFailed(reason)), origin: path)
                }
            }
        }
        return TileFetch(.missing(.absent), origin: first ?? levelFolder)
    }

    /// The tile from the bundle holding it: `L{level}/R{rrrr}C{cccc}.bundle`, named by the hex
    /// row and column of the bundle's first tile (lower case, then upper case).
    static func bundleTile(_ bundles: BundleHandles, level: String, row: Int, column: Int) -> TileFetch {
        let side = CompactBundleV2.side
        let bundleRow = row / side * side, bundleColumn = column / side * side
        var origin = ""
        for digits in ["%04x", "%04X"] {
            let base = "\(level)/R\(String(format: digits, bundleRow))C\(String(format: digits, bundleColumn))"
            origin = "\(base).bundle (row \(row), column \(column))"
            switch bundles.bundle(base: base) {
            case .failure(let error): return TileFetch(.missing(.readFailed(error.description)), origin: origin)
            case .success(.absent): continue
            case .success(let bundle):
                switch bundle.tile(row: row, column: column) {
                case .tile(let data): return TileFetch(.found(.encoded(data)), origin: origin)
                case .absent: return TileFetch(.missing(.absent), origin: origin)
                case .corrupt(let reason): return TileFetch(.missing(.corrupt(reason)), origin: origin)
                case .failed(let reason): return TileFetch(.missing(.readFailed(reason)), origin: origin)
                }
            }
        }
        return TileFetch(.missing(.absent), origin: origin)
    }
}
