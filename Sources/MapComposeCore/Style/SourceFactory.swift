import Foundation
import Yams

/// Opens the `TileSource` a `SourceSpec` describes, logging failures against the style.
enum SourceFactory {
    /// `styleVariables`: the variables the style's `env:` lets its sources read.
    static func makeSource(_ spec: SourceSpec, keyPath: String, node: Node, log: StyleProblemLog,
                           remote: RemoteEnvironment, styleVariables: Set<String> = []) -> (any TileSource)? {
        switch spec {
        case .xyz(let xyz):
            return FolderTileSource(spec: xyz)
        case .remoteXYZ(let xyz):
            guard allSet(xyz.templates.map { EnvironmentReference($0.text) }, xyz.remote, keyPath: keyPath, node: node,
                         log: log, remote: remote, styleVariables: styleVariables) else { return nil }
            return RemoteXYZTileSource(spec: xyz, environment: remote)
        case .tilejson(let tilejson):
            var references: [EnvironmentReference] = []
            if case .remote(let url) = tilejson.location { references.append(url) }
            guard allSet(references, tilejson.remote, keyPath: keyPath, node: node, log: log, remote: remote,
                         styleVariables: styleVariables) else { return nil }
            if let withheld = withheld(references, tilejson.remote, remote: remote) {
                return unresolved(withheld, unreachable: true, keyPath: keyPath, node: node, log: log, remote: remote)
            }
            do {
                return RemoteXYZTileSource(spec: try TileJSONResolver.resolve(tilejson, environment: remote), environment: remote)
            } catch {
                return unresolved("TileJSON '\(tilejson.locationText)': \(error.description)", unreachable: error.unreachable,
                                  keyPath: keyPath, node: node, log: log, remote: remote)
            }
        case .wmts(let wmts):
            guard allSet([wmts.url], wmts.remote, keyPath: keyPath, node: node, log: log, remote: remote,
                         styleVariables: styleVariables) else { return nil }
            if let withheld = withheld([wmts.url], wmts.remote, remote: remote) {
                return unresolved(withheld, unreachable: true, keyPath: keyPath, node: node, log: log, remote: remote)
            }
            do {
                return try WMTSResolver.resolve(wmts, environment: remote)
            } catch {
                return unresolved("WMTS '\(wmts.url.text)': \(error.description)", unreachable: error.unreachable,
                                  keyPath: keyPath, node: node, log: log, remote: remote)
            }
        case .wms(let wms):
            guard allSet([EnvironmentReference(wms.getMap.url)], wms.remote, keyPath: keyPath, node: node, log: log,
                         remote: remote, styleVariables: styleVariables) else { return nil }
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
        case .pmtiles(let pmtiles):
            var references: [EnvironmentReference] = []
            if case .remote(let url) = pmtiles.location { references.append(url) }
            guard allSet(references, pmtiles.remote, keyPath: keyPath, node: node, log: log, remote: remote,
                         styleVariables: styleVariables) else { return nil }
            if let withheld = withheld(references, pmtiles.remote, remote: remote) {
                return unresolved(withheld, unreachable: true, keyPath: keyPath, node: node, log: log, remote: remote)
            }
            do {
                return try PMTilesSource(spec: pmtiles, environment: remote)
            } catch {
                guard !references.isEmpty else {
                    log.add(node, "\(keyPath).path", "PMTiles '\(pmtiles.locationText)': \(error.reason)")
                    return nil
                }
                return unresolved("PMTiles '\(pmtiles.locationText)': \(error.reason)", unreachable: true,
                                  keyPath: keyPath, node: node, log: log, remote: remote)
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
        case .maplibre(let maplibre):
            let inner = StyleProblemLog(file: maplibre.path)
            let group = MapLibreStyleLoader.open(maplibre, remote: remote, log: inner)
            for problem in inner.problems {
                log.add(node, "\(keyPath).style", "\(maplibre.path): \(problem.keyPath.isEmpty ? "" : "\(problem.keyPath): ")\(problem.message)")
            }
            for note in inner.notes { log.note(node, "\(keyPath).style", "\(maplibre.path): \(note.message)") }
            return group
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

    /// True when every environment variable the URLs and HTTP settings reference may be read
    /// (the style's `env:` or the command line's `--allow-env` names it) and is set; else each
    /// one that may not, or is not set, is logged (by name: values are never shown).
    private static func allSet(_ urls: [EnvironmentReference], _ options: RemoteOptions, keyPath: String, node: Node,
                               log: StyleProblemLog, remote: RemoteEnvironment, styleVariables: Set<String>) -> Bool {
        let names = variableNames(urls, options)
        let refused = names.filter { !styleVariables.contains($0) && !remote.allowedVariables.contains($0) }
        for name in refused {
            log.add(node, keyPath, "refers to the environment variable \(name), which the style may not read: list it "
                    + "under env: in the style (env: [\(name)]), or pass --allow-env \(name)")
        }
        let unset = remote.client.unset(names.filter { !refused.contains($0) })
        for name in unset {
            log.add(node, keyPath, "refers to the environment variable \(name), which is not set (export \(name)=… before running)")
        }
        return refused.isEmpty && unset.isEmpty
    }

    /// Why a document is not fetched while only the command line's variables may be sent (see
    /// `RemoteEnvironment.sendsOnlyAllowedVariables`): the variables it needs; nil when it may be.
    private static func withheld(_ urls: [EnvironmentReference], _ options: RemoteOptions,
                                 remote: RemoteEnvironment) -> String? {
        guard remote.sendsOnlyAllowedVariables else { return nil }
        let withheld = variableNames(urls, options).filter { !remote.allowedVariables.contains($0) }
        guard !withheld.isEmpty else { return nil }
        return "its request would send " + withheld.map { "${\($0)}" }.joined(separator: ", ")
            + " (pass " + withheld.map { "--allow-env \($0)" }.joined(separator: " ") + " to send it)"
    }

    /// The variables `urls` and `options` reference, each once, in order.
    private static func variableNames(_ urls: [EnvironmentReference], _ options: RemoteOptions) -> [String] {
        var seen: Set<String> = []
        return (urls.flatMap(\.variableNames) + options.http.variableNames).filter { seen.insert($0).inserted }
    }
}
