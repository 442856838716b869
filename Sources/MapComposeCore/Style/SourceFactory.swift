import Foundation
import Yams

/// Opens the `TileSource` a `SourceSpec` describes, logging failures against the style.
enum SourceFactory {
    static func makeSource(_ spec: SourceSpec, keyPath: String, node: Node, log: StyleProblemLog) -> (any TileSource)? {
        switch spec {
        case .xyz(let xyz):
            return FolderTileSource(spec: xyz)
        case .mbtiles(let mbtiles):
            do {
                return try MBTilesSource(spec: mbtiles)
            } catch {
                log.add(node, "\(keyPath).path", error.description)
                return nil
            }
        case .geojson(let geojson):
            do {
                return try GeoJSONTileSource(spec: geojson)
            } catch {
                log.add(node, "\(keyPath).path", "'\(geojson.path)': \(error.description)")
                return nil
            }
        case .solid(let color):
            return SolidTileSource(color: color)
        case .checkerboard(let checkerboard):
            return CheckerboardTileSource(spec: checkerboard)
        case .debug(let color):
            return DebugTileSource(color: color)
        case .arcgis(let arcgis):
            do {
                return try ArcGISTileSource(spec: arcgis)
            } catch {
                log.add(node, "\(keyPath).path", error.description)
                return nil
            }
        }
    }
}
