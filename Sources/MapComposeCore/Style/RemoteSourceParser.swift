import Foundation
import Yams

/// The style keys of remote sources: `xyz` with a `url`, `tilejson` and `wms`, and the keys
/// they share (`headers`, `user-agent`, `timeout`, `retries`, `concurrency`, `cache`).
extension StyleParser {
    static let remoteKeys = ["headers", "user-agent", "timeout", "retries", "concurrency", "cache", "attribution"]
    static let cacheKeys = ["id", "ttl", "negative-ttl", "max-size"]

    func parseRemoteXYZ(_ map: StyleMapping, layer: String) -> SourceSpec? {
        map.rejectUnknownKeys(["type", "url", "subdomains", "scheme", "minzoom", "maxzoom", "bounds", "tile-size", "retina"]
                              + Self.remoteKeys)
        let native = nativeZoom(map)
        let size = tileSize(map)
        let bounds = map.bounds("bounds")
        let tms = scheme(map)
        let retina = map.bool("retina") ?? false
        let subdomains = parseSubdomains(map)
        let remote = parseRemoteOptions(map, layer: layer)
        guard let template = urlTemplate(map, "url") else { return nil }
        if template.placeholders.contains("s"), subdomains.isEmpty {
            log.add(map.value("url"), map.path("url"), "uses {s} but the source lists no 'subdomains'")
        }
        guard let remote else { return nil }
        return .remoteXYZ(RemoteXYZSourceSpec(templates: [template], subdomains: subdomains, tms: tms ?? false,
                                              nativeZoom: native ?? TileSourceInfo.defaultNativeLevels, bounds: bounds,
                                              tileSize: size, retina: retina, attribution: map.string("attribution"),
                                              remote: remote))
    }

    func parseTileJSON(_ map: StyleMapping, layer: String) -> SourceSpec? {
        map.rejectUnknownKeys(["type", "url", "tile-size", "minzoom", "maxzoom", "retina"] + Self.remoteKeys)
        let native = nativeZoom(map)
        let size = map.value("tile-size").map { _ in tileSize(map) }
        let retina = map.bool("retina") ?? false
        let remote = parseRemoteOptions(map, layer: layer)
        guard let url = map.string("url", required: true) else { return nil }
        let location: TileJSONSourceSpec.Location
        if url.hasPrefix("http://") || url.hasPrefix("https://") {
            location = .remote(EnvironmentReference(url))
        } else {
            guard let file = existingFile(map, "url") else { return nil }
            location = .file(file)
        }
        guard let remote else { return nil }
        return .tilejson(TileJSONSourceSpec(location: location, tileSize: size, nativeZoom: native, retina: retina, remote: remote))
    }

    /// `pmtiles`: `path` (a file) or `url` (a server answering range requests).
    func parsePMTiles(_ map: StyleMapping, layer: String) -> SourceSpec? {
        map.rejectUnknownKeys(["type", "path", "url", "minzoom", "maxzoom", "tile-size"] + Self.remoteKeys)
        let native = nativeZoom(map)
        let size = tileSize(map)
        let remote = parseRemoteOptions(map, layer: layer)
        let location: PMTilesSourceSpec.Location
        switch (map.value("path"), map.value("url")) {
        case (_?, _?):
            log.add(map.value("url"), map.path("url"), "give either 'path' (a PMTiles file) or 'url' (on a server), not both")
            return nil
        case (nil, _?):
            guard let url = map.string("url", required: true) else { return nil }
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                log.add(map.value("url"), map.path("url"), "expected an http(s) URL; a file is given as 'path'")
                return nil
            }
            location = .remote(EnvironmentReference(url))
        default:
            guard let file = existingFile(map, "path") else { return nil }
            location = .file(file)
        }
        guard let remote else { return nil }
        return .pmtiles(PMTilesSourceSpec(location: location, nativeZoom: native, tileSize: size, remote: remote))
    }

    func parseWMS(_ map: StyleMapping, layer: String) -> SourceSpec? {
        map.rejectUnknownKeys(["type", "url", "version", "layers", "styles", "format", "transparent", "bgcolor", "crs", "params",
                               "mode", "tile-size", "metatile", "buffer", "max-size", "minzoom", "maxzoom", "bounds"] + Self.remoteKeys)
        let native = nativeZoom(map)
        let size = tileSize(map)
        let bounds = map.bounds("bounds")
        let remote = parseRemoteOptions(map, layer: layer)
        var version = WMSVersion.v1_3_0
        if let text = map.string("version") {
            if let parsed = WMSVersion(rawValue: text) { version = parsed } else {
                log.add(map.value("version"), map.path("version"), "unknown WMS version '\(text)' (expected 1.1.1 or 1.3.0)")
            }
        }
        var mode = WMSSourceSpec.Mode.tiled
        if let text = map.string("mode") {
            if let parsed = WMSSourceSpec.Mode(rawValue: text) { mode = parsed } else {
                log.add(map.value("mode"), map.path("mode"), "unknown mode '\(text)' (expected tiled or single)")
            }
        }
        let crs = WMSCoordinateSystem(map.string("crs") ?? "EPSG:3857")
        if !crs.isWebMercator {
            log.add(map.value("crs"), map.path("crs"),
                    "'\(crs)' is not Web Mercator; maps are drawn in EPSG:3857 and pictures are not reprojected "
                    + "(use one of \(WMSCoordinateSystem.webMercatorCodes.sorted().joined(separator: ", ")))")
        }
        var bgcolor: String?
        if let color = map.color("bgcolor") {
            bgcolor = String(format: "0x%02X%02X%02X", color.r, color.g, color.b)
        }
        let metatile = map.integer("metatile", in: 1...16) ?? 1
        let buffer = map.integer("buffer", in: 0...1024) ?? 0
        let maxSize = map.integer("max-size", in: 64...16384) ?? 4096
        let params = stringMapping(map, "params") ?? [:]
        let format = map.string("format") ?? "image/png"
        if !format.hasPrefix("image/") {
            log.add(map.value("format"), map.path("format"), "expected an image type such as image/png or image/jpeg, got '\(format)'")
        }
        guard let url = map.string("url", required: true), let layers = map.string("layers", required: true) else { return nil }
        if !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            log.add(map.value("url"), map.path("url"), "expected an http or https URL, got '\(url)'")
        }
        guard let remote else { return nil }
        let getMap = WMSGetMap(url: url, version: version, layers: layers, styles: map.string("styles") ?? "", format: format,
                               transparent: map.bool("transparent") ?? true, bgcolor: bgcolor, crs: crs, params: params)
        return .wms(WMSSourceSpec(getMap: getMap, mode: mode, tileSize: size, metatile: metatile, buffer: buffer, maxSize: maxSize,
                                  nativeZoom: native ?? TileSourceInfo.defaultNativeLevels, bounds: bounds,
                                  attribution: map.string("attribution"), remote: remote))
    }

    func parseWMTS(_ map: StyleMapping, layer: String) -> SourceSpec? {
        map.rejectUnknownKeys(["type", "url", "layer", "style", "tile-matrix-set", "format", "minzoom", "maxzoom", "bounds"]
                              + Self.remoteKeys)
        let native = nativeZoom(map)
        let bounds = map.bounds("bounds")
        let remote = parseRemoteOptions(map, layer: layer)
        guard let url = map.string("url", required: true) else { return nil }
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            log.add(map.value("url"), map.path("url"), "expected the http or https URL of the capabilities document, got '\(url)'")
            return nil
        }
        guard let remote else { return nil }
        return .wmts(WMTSSourceSpec(url: EnvironmentReference(url), layer: map.string("layer"), style: map.string("style"),
                                    tileMatrixSet: map.string("tile-matrix-set"), format: map.string("format"), nativeZoom: native,
                                    bounds: bounds, attribution: map.string("attribution"), remote: remote))
    }

    /// `scheme: xyz|tms`; nil when absent.
    func scheme(_ map: StyleMapping) -> Bool? {
        guard let scheme = map.string("scheme") else { return nil }
        switch scheme {
        case "xyz": return false
        case "tms": return true
        default:
            log.add(map.value("scheme"), map.path("scheme"), "unknown scheme '\(scheme)' (expected xyz or tms)")
            return nil
        }
    }

    private func urlTemplate(_ map: StyleMapping, _ key: String) -> TilePathTemplate? {
        guard let url = map.string(key, required: true) else { return nil }
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            log.add(map.value(key), map.path(key), "expected an http or https URL template, got '\(url)'")
            return nil
        }
        do {
            return try TilePathTemplate(url, allowing: TilePathTemplate.urlPlaceholders)
        } catch {
            log.add(map.value(key), map.path(key), "'\(url)': \(error)")
            return nil
        }
    }

    /// `subdomains: [a, b, c]` or `subdomains: abc` (one letter each).
    private func parseSubdomains(_ map: StyleMapping) -> [String] {
        guard let node = map.value("subdomains") else { return [] }
        if let text = node.scalar?.string, !text.isEmpty { return text.map(String.init) }
        guard case .sequence(let items) = node else {
            log.add(node, map.path("subdomains"), "expected a list of subdomains such as [a, b, c]")
            return []
        }
        let names = items.compactMap { $0.scalar?.string }.filter { !$0.isEmpty }
        if names.count != items.count || names.isEmpty {
            log.add(node, map.path("subdomains"), "expected a non-empty list of subdomain names")
        }
        return names
    }

    /// A mapping of names to text values (`headers`, `params`).
    private func stringMapping(_ map: StyleMapping, _ key: String) -> [String: String]? {
        guard let node = map.value(key) else { return nil }
        guard case .mapping(let mapping) = node else {
            log.add(node, map.path(key), "expected a mapping of names to values")
            return nil
        }
        var result: [String: String] = [:]
        for (name, value) in mapping {
            guard let name = name.scalar?.string, !name.isEmpty, let text = value.scalar?.string else {
                log.add(value, "\(map.path(key)).\(name.scalar?.string ?? "?")", "expected a text value")
                continue
            }
            result[name] = text
        }
        return result
    }

    /// The keys every remote source shares; nil when one of them is wrong.
    func parseRemoteOptions(_ map: StyleMapping, layer: String) -> RemoteOptions? {
        let before = log.reportCount
        var http = HTTPSettings()
        let headers = stringMapping(map, "headers") ?? [:]
        http.headers = headers.keys.sorted().map { (name: $0, value: EnvironmentReference(headers[$0]!)) }
        if let agent = map.string("user-agent") { http.userAgent = EnvironmentReference(agent) }
        if let timeout = map.duration("timeout") {
            if timeout < 0.01 || timeout > 3_600 {
                log.add(map.value("timeout"), map.path("timeout"), "must be between 10ms and 1h")
            } else {
                http.timeout = timeout
            }
        }
        if let retries = map.integer("retries", in: 0...10) { http.retry.retries = retries }
        if let concurrency = map.integer("concurrency", in: 1...64) { http.concurrency = concurrency }
        var cache = CachePolicy()
        if let node = map.value("cache") {
            if let enabled = node.flag {
                cache.enabled = enabled
            } else if let settings = StyleMapping(node, keyPath: map.path("cache"), log: log) {
                settings.rejectUnknownKeys(Self.cacheKeys)
                if let id = settings.string("id") {
                    if CacheDescription.isValidID(id) { cache.id = id } else {
                        log.add(settings.value("id"), settings.path("id"),
                                "'\(id)' cannot name a folder (use letters, digits, '-', '_' and '.', not starting with '.')")
                    }
                }
                cache.ttl = settings.duration("ttl")
                if let negative = settings.duration("negative-ttl") { cache.negativeTTL = negative }
                if let size = settings.byteSize("max-size") { cache.maxBytes = size }
            }
        }
        guard log.reportCount == before else { return nil }
        return RemoteOptions(layer: layer, http: http, cache: cache)
    }
}
