import Foundation
import MapLibreStyleSpec

/// A source of a MapLibre style as written, before it is opened.
struct MapLibreSourceDefinition {
    enum Kind: String {
        case vector, raster, geojson
    }

    enum Location {
        /// `url`: a TileJSON document (http(s) or a file), `mbtiles://…` or `pmtiles://…`.
        case url(String)
        /// `tiles`: URL or file path templates.
        case tiles([String])
        /// `data` of a GeoJSON source: inline, or a URL or file.
        case inline(JSONValue)
        case data(String)
    }

    let id: String
    let kind: Kind
    let location: Location
    let minzoom: Int?
    let maxzoom: Int?
    let bounds: GeoBounds?
    let tileSize: Int?
    let scheme: String?
    let attribution: String?
    /// A GeoJSON source's `lineMetrics`: whether its lines carry `line-progress` (for `line-gradient`).
    var lineMetrics = false
    /// Key path of the source in the style, for messages.
    let keyPath: String
}

/// A MapLibre style (version 8) read from JSON: the sources it names and the layers drawn,
/// with every problem logged by key path and every layer that is not drawn named once.
struct MapLibreStyleDefinition {
    var name: String?
    var sources: [String: MapLibreSourceDefinition] = [:]
    var layers: [MapLibreLayer] = []
    /// Where the sprite is (without `.json`/`.png`): the `default` one of several.
    var sprite: String?
    /// One line per layer (or style feature) that is not drawn, with the layer id.
    var warnings: [String] = []
}

/// Reads MapLibre style JSON into a `MapLibreStyleDefinition`.
enum MapLibreStyleParser {
    /// Keys of the root that change nothing in a still, flat, north-up map, and the bookkeeping
    /// keys that styles published by Mapbox-style editors carry (`id`, `owner`, `created`, …;
    /// OpenMapTiles' Positron and OSM Bright have `id`), which MapLibre's renderers skip.
    static let ignoredRootKeys: Set<String> = ["version", "name", "metadata", "center", "zoom", "bearing", "pitch",
                                               "sprite", "glyphs", "transition", "light", "state", "font-faces",
                                               "id", "owner", "created", "modified", "draft", "visibility", "protected"]
    /// Root keys whose effect is not drawn: named in a warning.
    static let unsupportedRootKeys: Set<String> = ["terrain", "sky", "projection"]

    /// True when `json` looks like a MapLibre style: an object with `version` and `layers`.
    static func isMapLibreStyle(_ json: JSONValue) -> Bool {
        guard case .object(let object) = json else { return false }
        return object["version"] != nil && object["layers"] != nil
    }

    static func parse(_ json: JSONValue, log: StyleProblemLog) -> MapLibreStyleDefinition {
        var style = MapLibreStyleDefinition()
        guard case .object(let root) = json else {
            log.add(nil, "", "a MapLibre style is a JSON object")
            return style
        }
        if root["version"] != .int(8) {
            log.add(nil, "version", "expected 8 (MapLibre style version 8), got \(show(root["version"]))")
        }
        style.name = root["name"]?.string
        switch root["sprite"] {
        case .string(let text)?: style.sprite = text
        case .array(let items)?:
            style.sprite = (items.first { $0["id"]?.string == "default" } ?? items.first)?["url"]?.string
        case nil: break
        default: log.add(nil, "sprite", "expected a URL or a list of {id, url}, got \(show(root["sprite"]))")
        }
        for key in root.keys where !ignoredRootKeys.contains(key) && !["sources", "layers"].contains(key) {
            if unsupportedRootKeys.contains(key) {
                if key == "projection", root[key]?["type"] == .string("mercator") { continue }
                style.warnings.append("style '\(key)' is not drawn (mapcompose draws a flat Web Mercator map)")
            } else {
                log.add(nil, key, "unknown key '\(key)' in a MapLibre style")
            }
        }
        if let sources = root["sources"] {
            if case .object(let members) = sources {
                for (id, value) in members.members {
                    if let source = parseSource(id: id, value, log: log) { style.sources[id] = source }
                }
            } else {
                log.add(nil, "sources", "expected an object of sources, got \(show(sources))")
            }
        } else {
            log.add(nil, "sources", "a MapLibre style needs 'sources' (an object, which may be empty)")
        }
        guard case .array(let layers)? = root["layers"] else {
            log.add(nil, "layers", "expected an array of layers, got \(show(root["layers"]))")
            return style
        }
        var ids: [String: Int] = [:]
        for (index, item) in layers.enumerated() {
            let keyPath = "layers[\(index)]"
            guard case .object(let layer) = item else {
                log.add(nil, keyPath, "expected a layer object, got \(show(item))")
                continue
            }
            guard let id = layer["id"]?.string else {
                log.add(nil, "\(keyPath).id", "a layer needs a string 'id'")
                continue
            }
            if let first = ids[id] {
                log.add(nil, "\(keyPath).id", "duplicate layer id '\(id)' (first used by layers[\(first)])")
                continue
            }
            ids[id] = index
            if let parsed = parseLayer(layer, id: id, keyPath: keyPath, sources: style.sources, log: log,
                                       warnings: &style.warnings) {
                style.layers.append(parsed)
            }
        }
        return style
    }

    static func show(_ value: JSONValue?) -> String {
        guard let value else { return "nothing" }
        switch value {
        case .null: return "null"
        case .bool(let b): return "\(b)"
        case .int(let i): return "\(i)"
        case .double(let d): return d.exactText
        case .string(let s): return "'\(s.prefix(60))'"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    private static func parseSource(id: String, _ value: JSONValue, log: StyleProblemLog) -> MapLibreSourceDefinition? {
        let keyPath = "sources.\(id)"
        guard case .object(let source) = value else {
            log.add(nil, keyPath, "expected a source object, got \(show(value))")
            return nil
        }
        guard let typeName = source["type"]?.string else {
            log.add(nil, "\(keyPath).type", "a source needs a 'type'")
            return nil
        }
        guard let kind = MapLibreSourceDefinition.Kind(rawValue: typeName) else {
            if ["raster-dem", "image", "video", "canvas"].contains(typeName) {
                // Layers using it are named in warnings; the source itself is not read.
                return nil
            }
            log.add(nil, "\(keyPath).type", "unknown source type '\(typeName)' (expected vector, raster, geojson, "
                    + "raster-dem, image or video)")
            return nil
        }
        func zoom(_ key: String) -> Int? {
            guard let value = source[key] else { return nil }
            guard let number = value.number, number == number.rounded(), (0...30).contains(number) else {
                log.add(nil, "\(keyPath).\(key)", "expected a whole number within 0…30, got \(show(value))")
                return nil
            }
            return Int(number)
        }
        let minzoom = zoom("minzoom"), maxzoom = zoom("maxzoom")
        if let minzoom, let maxzoom, minzoom > maxzoom {
            log.add(nil, "\(keyPath).maxzoom", "must not be below minzoom (\(minzoom))")
        }
        var bounds: GeoBounds?
        if let value = source["bounds"] {
            if let items = value.array?.compactMap(\.number), items.count == 4,
               GeoBounds(west: items[0], south: items[1], east: items[2], north: items[3]).isValidBox {
                bounds = GeoBounds(west: items[0], south: items[1], east: items[2], north: items[3])
            } else {
                log.add(nil, "\(keyPath).bounds", "expected [west, south, east, north] in degrees, got \(show(value))")
            }
        }
        var tileSize: Int?
        if let value = source["tileSize"] {
            if let size = value.number, [256, 512].contains(size) {
                tileSize = Int(size)
            } else {
                log.add(nil, "\(keyPath).tileSize", "expected 256 or 512, got \(show(value))")
            }
        }
        let scheme = source["scheme"]?.string
        if let scheme, !["xyz", "tms"].contains(scheme) {
            log.add(nil, "\(keyPath).scheme", "expected 'xyz' or 'tms', got '\(scheme)'")
        }
        var lineMetrics = false
        if let value = source["lineMetrics"] {
            if case .bool(let flag) = value {
                lineMetrics = flag
            } else {
                log.add(nil, "\(keyPath).lineMetrics", "expected true or false, got \(show(value))")
            }
        }
        let location: MapLibreSourceDefinition.Location
        switch kind {
        case .geojson:
            switch source["data"] {
            case .string(let text)?: location = .data(text)
            case .object?: location = .inline(source["data"]!)
            default:
                log.add(nil, "\(keyPath).data", "a geojson source needs 'data': GeoJSON, or its URL or file")
                return nil
            }
        case .vector, .raster:
            if let tiles = source["tiles"] {
                guard let templates = tiles.array?.compactMap(\.string), !templates.isEmpty,
                      templates.count == tiles.array?.count else {
                    log.add(nil, "\(keyPath).tiles", "expected a non-empty array of URL templates, got \(show(tiles))")
                    return nil
                }
                location = .tiles(templates)
            } else if let url = source["url"] {
                guard let text = url.string, !text.isEmpty else {
                    log.add(nil, "\(keyPath).url", "expected a URL, got \(show(url))")
                    return nil
                }
                location = .url(text)
            } else {
                log.add(nil, keyPath, "a \(typeName) source needs 'url' or 'tiles'")
                return nil
            }
        }
        var definition = MapLibreSourceDefinition(id: id, kind: kind, location: location, minzoom: minzoom, maxzoom: maxzoom,
                                                  bounds: bounds, tileSize: tileSize, scheme: scheme,
                                                  attribution: source["attribution"]?.string, keyPath: keyPath)
        definition.lineMetrics = kind == .geojson && lineMetrics
        return definition
    }

    private static func parseLayer(_ layer: JSONObject, id: String, keyPath: String,
                                   sources: [String: MapLibreSourceDefinition], log: StyleProblemLog,
                                   warnings: inout [String]) -> MapLibreLayer? {
        guard let typeName = layer["type"]?.string else {
            log.add(nil, "\(keyPath).type", "layer '\(id)' needs a 'type'")
            return nil
        }
        let known = ["background", "fill", "line", "circle", "raster", "symbol", "fill-extrusion", "heatmap",
                     "hillshade", "color-relief"]
        guard known.contains(typeName) else {
            log.add(nil, "\(keyPath).type", "unknown layer type '\(typeName)' (expected one of: \(known.joined(separator: ", ")))")
            return nil
        }
        func zoom(_ key: String, _ fallback: Double) -> Double {
            guard let value = layer[key] else { return fallback }
            guard let number = value.number, (0...24).contains(number) else {
                log.add(nil, "\(keyPath).\(key)", "expected a number within 0…24, got \(show(value))")
                return fallback
            }
            return number
        }
        let minzoom = zoom("minzoom", 0), maxzoom = zoom("maxzoom", 24)
        let layout = layer["layout"]?.object, paint = layer["paint"]?.object
        for key in ["layout", "paint"] where layer[key] != nil && layer[key]?.object == nil {
            log.add(nil, "\(keyPath).\(key)", "expected an object, got \(show(layer[key]))")
        }
        if let visibility = layout?["visibility"] {
            guard let text = visibility.string, ["visible", "none"].contains(text) else {
                log.add(nil, "\(keyPath).layout.visibility", "expected 'visible' or 'none', got \(show(visibility))")
                return nil
            }
            if text == "none" { return nil }
        }
        guard let kind = MapLibreLayer.Kind(rawValue: typeName) else {
            warnings.append("layer '\(id)': \(typeName) layers are not drawn")
            return nil
        }
        var source: String?
        if kind != .background {
            guard let name = layer["source"]?.string else {
                log.add(nil, "\(keyPath).source", "a \(typeName) layer needs a 'source'")
                return nil
            }
            guard let definition = sources[name] else {
                warnings.append("layer '\(id)': source '\(name)' is not drawn (not defined, or of a type mapcompose does not read)")
                return nil
            }
            let fits = kind == .raster ? definition.kind == .raster : definition.kind != .raster
            guard fits else {
                log.add(nil, "\(keyPath).source", "a \(typeName) layer cannot draw the \(definition.kind.rawValue) source '\(name)'")
                return nil
            }
            source = name
        }
        let sourceLayer = layer["source-layer"]?.string
        if kind != .background, kind != .raster, let source, sources[source]?.kind == .vector, sourceLayer == nil {
            log.add(nil, "\(keyPath).source-layer", "a layer of the vector source '\(source)' needs a 'source-layer'")
            return nil
        }
        var filter: StyleExpression?
        if let json = layer["filter"] {
            switch StyleExpression.parseFilter(json, rootKey: "\(keyPath).filter") {
            case .success(let expression): filter = expression
            case .failure(let errors):
                for line in errors.errors { log.add(nil, "\(keyPath).filter\(line.key)", line.message) }
                return nil
            }
        }
        let table = MapLibreProperties.drawn[typeName] ?? [:]
        var properties: [String: StyleExpression] = [:]
        var notDrawn: [String] = []
        var failed = false
        for (group, members) in [("layout", layout), ("paint", paint)] {
            for (name, value) in members?.members ?? [] {
                if name.hasSuffix("-transition") || MapLibreProperties.noEffect.contains(name) { continue }
                guard let entry = table[name] else {
                    notDrawn.append(name)
                    continue
                }
                guard entry.layout == (group == "layout") else {
                    log.add(nil, "\(keyPath).\(group).\(name)", "'\(name)' is a \(entry.layout ? "layout" : "paint") property")
                    failed = true
                    continue
                }
                var value = value
                if entry.spec.tokens, case .string(let text) = value, text.contains("{") {
                    value = LegacyFunction.tokenString(text)
                }
                switch StyleExpression.parseProperty(value, rootKey: "\(keyPath).\(group).\(name)", spec: entry.spec) {
                case .success(let expression):
                    // An enum (or an array of them) written as a plain value must be among its
                    // values (as MapLibre's validation says); one given by an expression is
                    // checked when it is drawn.
                    if !entry.spec.enumValues.isEmpty, expression.kind == .constant,
                       let text = Self.notAmong(entry.spec, expression.evaluate(EvaluationContext(zoom: 0), fallback: .null)) {
                        log.add(nil, "\(keyPath).\(group).\(name)",
                                "expected one of [\(entry.spec.enumValues.joined(separator: ", "))], \"\(text)\" found")
                        failed = true
                        continue
                    }
                    properties[name] = expression
                case .failure(let errors):
                    for line in errors.errors { log.add(nil, "\(keyPath).\(group).\(name)\(line.key)", line.message) }
                    failed = true
                }
            }
        }
        // A pattern replaces the layer's colour: drawn without it, the layer would be a plain
        // (by default black) fill or line where MapLibre draws the image, so it is left out.
        if let pattern = notDrawn.first(where: { $0.hasSuffix("-pattern") }) {
            warnings.append("layer '\(id)': \(pattern) not drawn, so the layer is left out")
            return nil
        }
        if !notDrawn.isEmpty {
            warnings.append("layer '\(id)': \(notDrawn.joined(separator: ", ")) not drawn")
        }
        let lineMetrics = source.flatMap { sources[$0]?.lineMetrics } ?? false
        if properties["line-gradient"] != nil, let warning = Self.lineGradientWarning(properties, lineMetrics: lineMetrics) {
            warnings.append("layer '\(id)': \(warning)")
        }
        guard !failed else { return nil }
        return MapLibreLayer(id: id, kind: kind, source: source, sourceLayer: sourceLayer, minzoom: minzoom,
                             maxzoom: maxzoom, filter: filter, properties: properties, lineMetrics: lineMetrics)
    }

    /// The first value of a constant `value` that is not one of `spec`'s enum values: the
    /// value itself for an enum, each string of it for an array of them; nil when all are.
    static func notAmong(_ spec: PropertySpecification, _ value: Value) -> String? {
        switch (spec.type, value) {
        case ("enum", .string(let text)): return spec.enumValues.contains(text) ? nil : text
        case ("array", .array(let items)):
            return items.lazy.compactMap(\.string).first { !spec.enumValues.contains($0) }
        default: return nil
        }
    }

    /// Why a layer's `line-gradient` is not drawn as a gradient, where it is not: MapLibre draws
    /// the pattern or the dashes in its place, and without line metrics the whole line in the
    /// gradient's colour at progress 0.
    private static func lineGradientWarning(_ properties: [String: StyleExpression], lineMetrics: Bool) -> String? {
        if let other = ["line-pattern", "line-dasharray"].first(where: { properties[$0] != nil }) {
            return "line-gradient not drawn: \(other) takes its place"
        }
        if !lineMetrics {
            return "line-gradient needs a geojson source with \"lineMetrics\": true; "
                + "the line is drawn in the gradient's colour at its start"
        }
        return nil
    }
}
