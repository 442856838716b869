import Foundation
import MapLibreStyleSpec
import Yams

/// Turns a style's YAML node tree into a `StyleDocument`, logging every problem it meets.
struct StyleParser {
    let origin: StyleOrigin
    let log: StyleProblemLog
    /// The icons of the style's markers, each file read once.
    let icons = MarkerIconCache()

    static let rootKeys = ["name", "background", "attribution", "deadline", "env", "layers", "overlays"]
    static let layerKeys = ["id", "source", "z", "opacity", "blend", "minzoom", "maxzoom", "bounds"]
    static let sourceTypes = ["xyz", "tilejson", "wms", "wmts", "mbtiles", "pmtiles", "geojson", "arcgis", "maplibre", "solid",
                              "checkerboard", "debug"]
    static let tileSizes = [256, 512]

    /// The document and, per layer in drawing order, its node and index in the file.
    func parseDocument(_ root: Node) -> (StyleDocument, [(node: Node, index: Int)])? {
        guard let map = StyleMapping(root, keyPath: "", log: log) else { return nil }
        // A file with none of a style's keys is not a style (a password file, say): one problem,
        // and none of its text quoted.
        guard map.keys.isEmpty || map.keys.contains(where: Self.rootKeys.contains) else {
            log.add(nil, "", "not a style: none of its keys is a style's (\(Self.rootKeys.joined(separator: ", ")))")
            return nil
        }
        map.rejectUnknownKeys(Self.rootKeys)
        let name = map.string("name") ?? defaultName
        let background = map.color("background") ?? RGBA.transparent
        let attribution = map.string("attribution")
        let deadline = map.duration("deadline")
        let env = parseEnvironmentNames(map)
        if let deadline, deadline <= 0 || deadline > 86_400 {
            log.add(map.value("deadline"), "deadline", "expected a duration above 0 and at most 1d, got \(deadline.exactText) s")
        }
        var layers: [(spec: LayerSpec, node: Node, index: Int)] = []
        var firstUse: [String: Int] = [:]
        if let items = map.sequence("layers", required: true) {
            if items.isEmpty { log.add(map.value("layers"), "layers", "a style needs at least one layer") }
            for (index, item) in items.enumerated() {
                let layer = parseLayer(item, index: index)
                if let id = item["id"]?.string {
                    if let first = firstUse[id] {
                        log.add(item["id"], "layers[\(index)].id", "duplicate layer id '\(id)' (first used by layers[\(first)])")
                    } else {
                        firstUse[id] = index
                    }
                }
                if let layer { layers.append((layer, item, index)) }
            }
        }
        let ordered = layers.enumerated()
            .sorted { ($0.element.spec.z, $0.offset) < ($1.element.spec.z, $1.offset) }
            .map(\.element)
        let overlays = map.sequence("overlays").map { $0.enumerated().flatMap { parseOverlay($1, index: $0) } } ?? []
        var document = StyleDocument(name: name, background: background, attribution: attribution,
                                     layers: ordered.map(\.spec), overlays: overlays)
        document.deadline = deadline.flatMap { $0 > 0 && $0 <= 86_400 ? $0 : nil }
        document.environmentVariables = env
        return (document, ordered.map { ($0.node, $0.index) })
    }

    /// `env:`, the environment variables the style's sources may read as `${NAME}`.
    private func parseEnvironmentNames(_ map: StyleMapping) -> [String] {
        guard let items = map.sequence("env") else { return [] }
        var names: [String] = []
        for (index, item) in items.enumerated() {
            guard let name = item.string, EnvironmentReference.isVariableName(name) else {
                log.add(item, "env[\(index)]", "expected an environment variable name (letters, digits and _), got \(StyleMapping.show(item))")
                continue
            }
            names.append(name)
        }
        return names
    }

    /// One item of `overlays:`: a kind's key (`marker`, `path`, `polygon`, `circle`, `text`) whose
    /// value is written as on the command line (`;key=value` settings and `enc=…` included),
    /// its settings also as keys beside it; or
    /// `geojson: FILE` for a simplestyle GeoJSON file.
    private func parseOverlay(_ node: Node, index: Int) -> [Overlay] {
        let keyPath = "overlays[\(index)]"
        guard let map = StyleMapping(node, keyPath: keyPath, log: log) else { return [] }
        let kinds = OverlayKind.allCases.map(\.rawValue) + ["geojson"]
        let present = kinds.filter { map.value($0) != nil }
        guard present.count == 1, let kindName = present.first else {
            log.add(node, keyPath, "expected exactly one of: \(kinds.joined(separator: ", "))"
                    + (present.isEmpty ? "" : " (got \(present.joined(separator: ", ")))"))
            return []
        }
        guard let main = map.string(kindName, required: true) else { return [] }
        guard let kind = OverlayKind(rawValue: kindName) else {
            map.rejectUnknownKeys(["geojson"])
            do {
                return try GeoJSONOverlay.overlays(from: try origin.data(at: main))
            } catch let error as OverlayError {
                log.add(map.value(kindName), map.path(kindName), "'\(main.messageExcerpt)': \(error.reason)")
            } catch {
                log.add(map.value(kindName), map.path(kindName), "\(error)")
            }
            return []
        }
        map.rejectUnknownKeys([kindName] + kind.settingKeys)
        var settings: [String: String] = [:]
        for key in kind.settingKeys {
            guard let value = map.value(key) else { continue }
            guard case .scalar(let scalar) = value else {
                log.add(value, map.path(key), "expected a single value, got \(StyleMapping.show(value))")
                continue
            }
            settings[key] = scalar.string
        }
        let origin = self.origin
        do {
            // Icons must be regular files: a style from elsewhere may not make a render wait on a pipe.
            let files: OverlaySyntax.FileResolver = { path throws(OverlayError) in
                do {
                    return try origin.existingFile(path)
                } catch {
                    throw OverlayError("icon: \(error)")
                }
            }
            return [try OverlaySyntax.parse(kind, main, settings: settings, files: files, icons: icons)]
        } catch {
            log.add(map.value(kindName), map.path(kindName), error.reason)
            return []
        }
    }

    private var defaultName: String {
        switch origin {
        case .file(let url): return url.deletingPathExtension().lastPathComponent
        case .builtIn(let style): return style.name
        }
    }

    private func parseLayer(_ node: Node, index: Int) -> LayerSpec? {
        let keyPath = "layers[\(index)]"
        guard let map = StyleMapping(node, keyPath: keyPath, log: log) else { return nil }
        map.rejectUnknownKeys(Self.layerKeys + Self.layerRuleKeys)
        let id = map.string("id", required: true)
        let z = map.integer("z", in: -1_000_000...1_000_000) ?? 0
        let opacity = map.number("opacity", in: 0...1) ?? 1
        let minzoom = map.number("minzoom", in: 0...24) ?? 0
        let maxzoom = map.number("maxzoom", in: 0...30) ?? 30
        if minzoom >= maxzoom, map.value("minzoom") != nil, map.value("maxzoom") != nil {
            log.add(map.value("maxzoom"), map.path("maxzoom"), "must be greater than minzoom (\(minzoom.exactText))")
        }
        var blend = BlendMode.srcOver
        if let name = map.string("blend") {
            if let mode = BlendMode(rawValue: name) {
                blend = mode
            } else {
                log.add(map.value("blend"), map.path("blend"),
                        "unknown blend mode '\(name)' (expected one of: \(BlendMode.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
        }
        let bounds = map.bounds("bounds")
        let source = map.requireValue("source").flatMap { parseSource($0, keyPath: map.path("source"), layer: id ?? "") }
        var spec = LayerSpec(id: id ?? "", source: source ?? .solid(color: .transparent), z: z, opacity: opacity,
                             blend: blend, minzoom: minzoom, maxzoom: maxzoom, bounds: bounds)
        parseLayerRules(map, into: &spec)
        guard id != nil, source != nil else { return nil }
        return spec
    }

    private func parseSource(_ node: Node, keyPath: String, layer: String) -> SourceSpec? {
        guard let map = StyleMapping(node, keyPath: keyPath, log: log) else { return nil }
        guard let type = map.string("type", required: true) else { return nil }
        switch type {
        case "xyz":
            if map.value("url") != nil, map.value("path") != nil {
                log.add(map.value("url"), keyPath, "give either 'path' (a folder of tiles) or 'url' (a tile server), not both")
                return nil
            }
            return map.value("url") != nil ? parseRemoteXYZ(map, layer: layer) : parseXYZ(map)
        case "tilejson": return parseTileJSON(map, layer: layer)
        case "wms": return parseWMS(map, layer: layer)
        case "wmts": return parseWMTS(map, layer: layer)
        case "mbtiles": return parseMBTiles(map)
        case "pmtiles": return parsePMTiles(map, layer: layer)
        case "geojson": return parseGeoJSON(map)
        case "arcgis": return parseArcGIS(map)
        case "maplibre": return parseMapLibre(map)
        case "solid":
            map.rejectUnknownKeys(["type", "color"])
            return map.color("color").map { .solid(color: $0) } ?? (map.value("color") == nil ? .solid(color: .white) : nil)
        case "checkerboard":
            map.rejectUnknownKeys(["type", "colors", "size"])
            return parseCheckerboard(map)
        case "debug":
            map.rejectUnknownKeys(["type", "color"])
            return .debug(color: map.color("color") ?? RGBA(r: 204, g: 0, b: 0))
        default:
            log.add(map.value("type"), map.path("type"),
                    "unknown source type '\(type)' (expected one of: \(Self.sourceTypes.joined(separator: ", ")))")
            return nil
        }
    }

    func nativeZoom(_ map: StyleMapping) -> ClosedRange<Int>? {
        let low = map.integer("minzoom", in: 0...30)
        let high = map.integer("maxzoom", in: 0...30)
        if let low, let high, low > high {
            log.add(map.value("maxzoom"), map.path("maxzoom"), "must not be below minzoom (\(low))")
            return nil
        }
        guard low != nil || high != nil else { return nil }
        let lowest = low ?? TileSourceInfo.defaultNativeLevels.lowerBound
        return lowest...(high ?? max(lowest, TileSourceInfo.defaultNativeLevels.upperBound))
    }

    /// `tile-size`: the pixel size of the source's tiles, 256 (default) or 512.
    func tileSize(_ map: StyleMapping) -> Int {
        guard let node = map.value("tile-size") else { return 256 }
        guard let size = node.scalar.flatMap({ Int($0.string) }), Self.tileSizes.contains(size) else {
            log.add(node, map.path("tile-size"),
                    "expected one of \(Self.tileSizes.map(String.init).joined(separator: ", ")), got \(StyleMapping.show(node))")
            return 256
        }
        return size
    }

    /// A file on disk named by `key`, logged as a problem when it is absent, not a regular file,
    /// or the style is built in.
    func existingFile(_ map: StyleMapping, _ key: String) -> URL? {
        guard let path = map.string(key, required: true) else { return nil }
        do {
            return try origin.existingFile(path)
        } catch {
            log.add(map.value(key), map.path(key), error.description)
            return nil
        }
    }

    private func parseXYZ(_ map: StyleMapping) -> SourceSpec? {
        map.rejectUnknownKeys(["type", "path", "scheme", "minzoom", "maxzoom", "bounds", "tile-size"])
        let native = nativeZoom(map)
        let size = tileSize(map)
        let bounds = map.bounds("bounds")
        let tms = scheme(map) ?? false
        guard let path = map.string("path", required: true) else { return nil }
        let folderPart = path.contains("{") ? String(path[..<path.firstIndex(of: "{")!]) : path
        let folder = folderPart.contains("/") ? String(folderPart[...folderPart.lastIndex(of: "/")!]) : ""
        let template: TilePathTemplate
        do {
            template = try TilePathTemplate(String(path.dropFirst(folder.count)))
        } catch {
            log.add(map.value("path"), map.path("path"), "'\(path)': \(error)")
            return nil
        }
        guard let root = existingFolder(map, folder, of: path) else { return nil }
        let levels = native ?? FolderTileSource.levelsPresent(root: root, template: template) ?? TileSourceInfo.defaultNativeLevels
        return .xyz(XYZSourceSpec(template: template, root: root, tms: tms, nativeZoom: levels, bounds: bounds,
                                  tileSize: size))
    }

    private func parseMBTiles(_ map: StyleMapping) -> SourceSpec? {
        map.rejectUnknownKeys(["type", "path", "minzoom", "maxzoom", "tile-size"])
        let native = nativeZoom(map)
        let size = tileSize(map)
        guard let file = existingFile(map, "path") else { return nil }
        return .mbtiles(MBTilesSourceSpec(file: file, nativeZoom: native, tileSize: size))
    }

    /// `type: maplibre`: `style` is a MapLibre style (JSON) drawn as this layer.
    private func parseMapLibre(_ map: StyleMapping) -> SourceSpec? {
        map.rejectUnknownKeys(["type", "style"])
        guard let path = map.string("style", required: true) else { return nil }
        let data: Data
        do {
            data = try origin.data(at: path)
        } catch {
            log.add(map.value("style"), map.path("style"), error.description)
            return nil
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes: [UInt8](data))
        } catch {
            log.add(map.value("style"), map.path("style"), "'\(path)' is not JSON: \(error)")
            return nil
        }
        guard MapLibreStyleParser.isMapLibreStyle(json) else {
            log.add(map.value("style"), map.path("style"), "'\(path)' is not a MapLibre style (no 'version' and 'layers')")
            return nil
        }
        let base = origin.resolve(path)?.deletingLastPathComponent()
        return .maplibre(MapLibreSourceSpec(json: json, path: path, base: base))
    }

    /// `type: arcgis`: `path` is the cache's layer folder or the cache folder above it.
    private func parseArcGIS(_ map: StyleMapping) -> SourceSpec? {
        map.rejectUnknownKeys(["type", "path"])
        guard let path = map.string("path", required: true),
              let folder = existingFolder(map, path, of: path) else { return nil }
        return .arcgis(ArcGISSourceSpec(folder: folder))
    }

    /// The folder `folder` (the folder part of the `path` value, which may be all of it),
    /// logged as a problem when it is not on disk or not a folder.
    private func existingFolder(_ map: StyleMapping, _ folder: String, of path: String) -> URL? {
        guard let root = origin.resolve(folder.isEmpty ? "." : folder) else {
            log.add(map.value("path"), map.path("path"), StyleOriginError.notOnDisk(path).description)
            return nil
        }
        let status = PathStatus(root)
        guard status == .folder else {
            let problem = status == .missing ? "no such folder '\(folder)'"
                : "'\(folder)' \(status.problem(expecting: "a folder") ?? "cannot be used")"
            log.add(map.value("path"), map.path("path"), "\(problem) (looked for \(root.path))")
            return nil
        }
        return root
    }

    private func parseGeoJSON(_ map: StyleMapping) -> SourceSpec? {
        map.rejectUnknownKeys(["type", "path", "fill", "stroke", "width", "radius", "label",
                               "label-color", "label-size", "label-halo"])
        let defaults = FeatureSymbolizer()
        let fill = map.optionalColor("fill", default: defaults.fill)
        let stroke = map.optionalColor("stroke", default: defaults.stroke)
        let halo = map.optionalColor("label-halo", default: defaults.labelHalo)
        let symbolizer = FeatureSymbolizer(
            fill: fill ?? defaults.fill, stroke: stroke ?? defaults.stroke,
            width: map.number("width", in: 0...64) ?? defaults.width,
            radius: map.number("radius", in: 0...64) ?? defaults.radius,
            labelProperty: map.string("label"),
            labelColor: map.color("label-color") ?? defaults.labelColor,
            labelSize: map.number("label-size", in: 4...72) ?? defaults.labelSize,
            labelHalo: halo ?? defaults.labelHalo)
        guard let path = map.string("path", required: true) else { return nil }
        do {
            if case .builtIn(let style) = origin, let text = style.files[path] {
                return .geojson(GeoJSONSourceSpec(builtInText: text, prepared: origin.preparedGeoJSON(at: path), path: path,
                                                  symbolizer: symbolizer))
            }
            return .geojson(GeoJSONSourceSpec(data: try origin.data(at: path), path: path, symbolizer: symbolizer))
        } catch {
            log.add(map.value("path"), map.path("path"), error.description)
            return nil
        }
    }

    private func parseCheckerboard(_ map: StyleMapping) -> SourceSpec? {
        var colors: (RGBA, RGBA)? = (RGBA(r: 255, g: 255, b: 255), RGBA(r: 204, g: 204, b: 204))
        if let items = map.sequence("colors") {
            colors = nil
            if items.count != 2 {
                log.add(map.value("colors"), map.path("colors"), "expected a list of two colours, got \(items.count) items")
            } else {
                let parsed = items.enumerated().map { index, item in
                    let color = item.string.flatMap(RGBA.init(parsing:))
                    if color == nil {
                        log.add(item, "\(map.path("colors"))[\(index)]", StyleMapping.notAColour(StyleMapping.show(item)))
                    }
                    return color
                }
                if let first = parsed[0], let second = parsed[1] { colors = (first, second) }
            }
        }
        let size = map.integer("size", in: 1...256)
        guard let colors, size != nil || map.value("size") == nil else { return nil }
        return .checkerboard(CheckerboardSourceSpec(colors: colors, cellSize: size ?? 32))
    }
}
