import Foundation
import Yams

/// Opens the `TileSource` a `SourceSpec` describes, logging failures against the style.
enum SourceFactory {
    static func makeSource(_ spec: SourceSpec, keyPath: String, node: Node, log: StyleProblemLog,
                           remote: RemoteEnvironment) -> (any TileSource)? {
        switch spec {
        case .xyz(let xyz):
            return FolderTileSource(spec: xyz)
        case .remoteXYZ(let xyz):
            guard allSet(xyz.templates.map { EnvironmentReference($0.text) }, xyz.remote, keyPath: keyPath, node: node,
                         log: log, remote: remote) else { return nil }
            return RemoteXYZTileSource(spec: xyz, environment: remote)
        case .tilejson(let tilejson):
            var references: [EnvironmentReference] = []
            if case .remote(let url) = tilejson.location { references.append(url) }
            guard allSet(references, tilejson.remote, keyPath: keyPath, node: node, log: log, remote: remote) else { return nil }
            do {
                return RemoteXYZTileSource(spec: try TileJSONResolver.resolve(tilejson, environment: remote), environment: remote)
            } catch {
                return unresolved("TileJSON '\(tilejson.locationText)': \(error.description)", unreachable: error.unreachable,
                                  keyPath: keyPath, node: node, log: log, remote: remote)
            }
        case .wmts(let wmts):
            guard allSet([wmts.url], wmts.remote, keyPath: keyPath, node: node, log: log, remote: remote) else { return nil }
            do {
                return try WMTSResolver.resolve(wmts, environment: remote)
            } catch {
                return unresolved("WMTS '\(wmts.url.text)': \(error.description)", unreachable: error.unreachable,
                                  keyPath: keyPath, node: node, log: log, remote: remote)
            }
        case .wms(let wms):
            guard allSet([EnvironmentReference(wms.getMap.url)], wms.remote, keyPath: keyPath, node: node, log: log,
                         remote: remote) else { return nil }
            switch wms.mode {
            case .tiled: return WMSTileSource(spec: wms, environment: remote)
            case .single: return WMSSingleSource(spec: wms, environment: remote)
            }
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

    /// A layer whose document (TileJSON, WMTS capabilities) could not be had: a style problem,
    /// or, when no server answered and the environment allows it, a note and a layer with no tiles.
    private static func unresolved(_ message: String, unreachable: Bool, keyPath: String, node: Node,
                                   log: StyleProblemLog, remote: RemoteEnvironment) -> (any TileSource)? {
        guard unreachable, remote.documentsMayBeUnreachable else {
            log.add(node, "\(keyPath).url", message)
            return nil
        }
        log.note(node, "\(keyPath).url", "not checked against its server: \(message)")
        return UnreachableSource(reason: message)
    }

    /// True when every environment variable the URLs and HTTP settings reference is set; else
    /// each missing one is logged (by name: values are never shown).
    private static func allSet(_ urls: [EnvironmentReference], _ options: RemoteOptions, keyPath: String, node: Node,
                               log: StyleProblemLog, remote: RemoteEnvironment) -> Bool {
        let names = urls.flatMap(\.variableNames) + options.http.variableNames
        var seen: Set<String> = []
        let unset = remote.client.unset(names.filter { seen.insert($0).inserted })
        for name in unset {
            log.add(node, keyPath, "refers to the environment variable \(name), which is not set (export \(name)=… before running)")
        }
        return unset.isEmpty
    }
}
