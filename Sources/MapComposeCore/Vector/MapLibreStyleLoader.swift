import Foundation
import MapLibreStyleSpec

/// A MapLibre style named by a mapcompose style (`source: {type: maplibre, style: …}`), or a
/// MapLibre style file given as the style itself.
public struct MapLibreSourceSpec: Sendable {
    /// The style JSON, parsed.
    public var json: JSONValue
    /// Where it was read from, for messages and as the identity of its tiles.
    public var path: String
    /// The folder relative paths in the style are resolved against.
    public var base: URL?
}

/// Reads MapLibre style JSON and opens what it draws.
enum MapLibreStyleLoader {
    /// The style JSON in `text` when it is a MapLibre style (a JSON object with `version` and
    /// `layers`); nil for anything else (YAML, or JSON that is not a MapLibre style).
    static func parseIfMapLibre(_ text: String) -> JSONValue? {
        guard text.first(where: { !$0.isWhitespace }) == "{", let json = try? JSONValue.parse(text),
              MapLibreStyleParser.isMapLibreStyle(json) else { return nil }
        return json
    }

    /// The JSON error of `text` when it reads as a MapLibre style that is not valid JSON (an
    /// object with a quoted `"version"` key); nil when it parses, or reads as something else,
    /// such as a YAML style written as a flow mapping.
    static func jsonError(ofMapLibreLike text: String) -> JSONParseError? {
        guard text.first(where: { !$0.isWhitespace }) == "{", text.contains("\"version\"") else { return nil }
        do {
            _ = try JSONValue.parse(text)
            return nil
        } catch {
            return error as? JSONParseError
        }
    }

    /// A mapcompose style of one layer, the MapLibre style in `json`.
    static func load(_ json: JSONValue, origin: StyleOrigin, remote: RemoteEnvironment) throws(StyleError) -> MapStyle {
        let log = StyleProblemLog(file: origin.displayName)
        let spec = MapLibreSourceSpec(json: json, path: origin.displayName, base: origin.baseDirectory)
        let group = open(spec, remote: remote, log: log)
        guard log.isEmpty, let group else { throw StyleError(problems: log.problems) }
        let name = json["name"]?.string ?? origin.displayName
        let layer = LayerSpec(id: "maplibre", source: .maplibre(spec), z: 0, opacity: 1, blend: .srcOver, minzoom: 0,
                              maxzoom: 30, bounds: nil)
        let document = StyleDocument(name: name, background: canvasBackground(group) ?? .transparent, attribution: nil,
                                     layers: [layer])
        return MapStyle(document: document, layers: [MapLayer(spec: layer, source: group)], origin: origin, notes: log.notes,
                        mapLibreLayerCount: group.layers.count)
    }

    /// MapLibre paints its background layer over the whole canvas, past the world's edges too
    /// (a world map taller than the world): the colour of a bottom background layer that is
    /// opaque and the same at every zoom, for the map's own background.
    static func canvasBackground(_ group: MapLibreGroup) -> RGBA? {
        guard let bottom = group.layers.first, bottom.kind == .background, bottom.minzoom <= 0, bottom.maxzoom >= 24 else {
            return nil
        }
        let colors = [0.0, 12, 24].map { zoom -> PaintColor? in
            let ctx = EvaluationContext(zoom: zoom)
            return bottom.color("background-color", ctx, opacity: bottom.number("background-opacity", ctx))
        }
        guard let first = colors[0], first.a >= 1, colors.allSatisfy({ $0 == first }) else { return nil }
        return first.rgba
    }

    /// Parses the style and opens its sources; problems go to `log` (key paths within the
    /// MapLibre style), layers not drawn become notes.
    static func open(_ spec: MapLibreSourceSpec, remote: RemoteEnvironment, log: StyleProblemLog) -> MapLibreGroup? {
        let definition = MapLibreStyleParser.parse(spec.json, log: log)
        for warning in definition.warnings { log.note(nil, "", warning) }
        var sources: [String: MapLibreOpenedSource] = [:]
        let used = Set(definition.layers.compactMap(\.source))
        for id in used.sorted() {
            guard let source = definition.sources[id] else { continue }
            switch MapLibreSourceOpener.open(source, base: spec.base, remote: remote, cacheLayer: "maplibre") {
            case .success(let opened): sources[id] = opened
            case .failure(let error) where error.isAbsentBasemap && remote.documentsMayBeUnreachable:
                log.note(nil, "\(source.keyPath).\(error.key)", "not checked: \(error.message)")
            case .failure(let error): log.add(nil, "\(source.keyPath).\(error.key)", error.message)
            }
        }
        guard log.isEmpty else { return nil }
        var sprite = SpriteSheets()
        if let location = definition.sprite {
            let (sheets, doubleProblem, leftOut) = MapLibreSprite.loadSheets(location, base: spec.base, remote: remote)
            switch sheets {
            case .success(let loaded):
                sprite = loaded
                for warning in MapLibrePatternImage.missing(in: definition.layers, sprite: loaded) { log.note(nil, "", warning) }
            case .failure(let error): log.note(nil, "sprite", "icons are not drawn: \(error.message)")
            }
            if let doubleProblem { log.note(nil, "sprite", "the @2x sheet is not drawn: \(doubleProblem)") }
            if let first = leftOut.first {
                let more = leftOut.count > 1 ? " (and \(leftOut.count - 1) more)" : ""
                log.note(nil, "sprite", "\(leftOut.count == 1 ? "an icon is" : "\(leftOut.count) icons are") not drawn: \(first)\(more)")
            }
        } else {
            for (property, what) in [("icon-image", "icons"), ("fill-pattern", "fill patterns"), ("line-pattern", "line patterns"),
                                     ("background-pattern", "background patterns")]
            where definition.layers.contains(where: { $0.properties[property] != nil }) {
                log.note(nil, "sprite", "\(what) are not drawn: the style names no sprite")
            }
        }
        let attributions = definition.sources.keys.sorted().compactMap { id -> String? in
            if let text = definition.sources[id]?.attribution { return text }
            if case .tiles(let source, _, _, _)? = sources[id] { return source.info.attribution }
            return nil
        }
        var seenAttributions: Set<String> = []
        let distinctAttributions = attributions.filter { seenAttributions.insert($0).inserted }
        let attribution = distinctAttributions.isEmpty ? nil : distinctAttributions.joined(separator: " ")
        return MapLibreGroup(identity: spec.path, layers: definition.layers, sources: sources, sprite: sprite,
                             attribution: attribution)
    }
}
