import Foundation
import Yams

/// A layer ready to draw: its spec and the source serving its tiles.
public struct MapLayer: Sendable {
    public let spec: LayerSpec
    public let source: any TileSource
}

/// A loaded style: the validated document and a live source for every layer, bottom first.
public struct MapStyle: Sendable {
    public let document: StyleDocument
    public let layers: [MapLayer]
    public let origin: StyleOrigin
    /// What loading noticed without failing (a layer whose server could not be reached when
    /// the environment allows that).
    public var notes: [StyleProblem] = []
    /// For a MapLibre style read as it is (a style.json, drawn as one layer): how many layers
    /// it has; nil for a mapcompose style.
    public var mapLibreLayerCount: Int?
}

/// Parses YAML or JSON style text, validates it (reporting every problem at once with file,
/// line and key path), resolves relative paths and opens each layer's source.
public enum StyleLoader {
    /// Loads a style file from disk.
    public static func load(file url: URL, remote: RemoteEnvironment = .standard) throws(StyleError) -> MapStyle {
        let origin = StyleOrigin.file(url)
        func failure(_ reason: String) -> StyleError {
            StyleError(problems: [StyleProblem(file: origin.displayName, line: nil, keyPath: "", message: reason)])
        }
        let status = PathStatus(url)
        switch status {
        case .file: break
        case .missing: throw failure("no such style file")
        default: throw failure(status.problem(expecting: "a style file") ?? "cannot be used")
        }
        let data: Data
        do {
            data = try PathStatus.read(url)
        } catch {
            throw failure("cannot read the style file: \(error.reason)")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw failure("the style file is not UTF-8 text") }
        return try load(text: text, origin: origin, remote: remote)
    }

    /// Loads a style built into the binary.
    /// Styles with a basemap variant draw the world basemap when one is installed
    /// (`BasemapLocator`), else their 1:110m data.
    public static func load(builtIn style: BuiltInStyle, remote: RemoteEnvironment = .standard) throws(StyleError) -> MapStyle {
        if let basemapText = style.basemapText {
            let found: URL?
            do {
                found = try BasemapLocator.locate()
            } catch {
                throw StyleError(problems: [StyleProblem(file: "built-in:\(style.name)", line: nil, keyPath: "",
                                                         message: error.description)])
            }
            if found != nil {
                return try load(text: basemapText, origin: .builtIn(style.overBasemap), remote: remote)
            }
        }
        return try load(text: style.text, origin: .builtIn(style), remote: remote)
    }

    /// Loads a style by built-in name, or else as a file path.
    public static func load(nameOrPath: String, remote: RemoteEnvironment = .standard) throws(StyleError) -> MapStyle {
        guard !nameOrPath.isEmpty else {
            let names = BuiltInStyle.all.map(\.name).joined(separator: ", ")
            throw StyleError(problems: [StyleProblem(
                file: "", line: nil, keyPath: "",
                message: "the style name is empty: give a built-in style (\(names)) or the path of a style file")])
        }
        if let style = BuiltInStyle.named(nameOrPath) { return try load(builtIn: style, remote: remote) }
        return try load(file: URL(fileURLWithPath: nameOrPath), remote: remote)
    }

    /// Loads style text (YAML, or JSON, which is YAML too) read from `origin`.
    /// Remote sources (`xyz` with a `url`, `tilejson`, `wms`) use `remote`'s HTTP client and
    /// disk cache; a TileJSON document is read while loading.
    public static func load(text: String, origin: StyleOrigin, remote: RemoteEnvironment = .standard) throws(StyleError) -> MapStyle {
        if let json = MapLibreStyleLoader.parseIfMapLibre(text) {
            return try MapLibreStyleLoader.load(json, origin: origin, remote: remote)
        }
        if let error = MapLibreStyleLoader.jsonError(ofMapLibreLike: text) {
            // Read as YAML, broken JSON gives errors about keys a MapLibre style rightly has.
            let line = text.utf8.prefix(error.offset).reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            throw StyleError(problems: [StyleProblem(
                file: origin.displayName, line: line, keyPath: "",
                message: "not valid JSON (\(error.message)); a MapLibre style is a JSON document")])
        }
        let log = StyleProblemLog(file: origin.displayName)
        let root: Node
        do {
            // No tag resolution: the style reader parses numbers itself and reads flags with
            // `Node.flag`, and Yams' default resolver compiles seven regular expressions. For the
            // same reason no constructor maps (building Yams' default ones costs more than
            // parsing a short style), and the encoding is given: Yams' default reads the whole
            // process environment to look for an override.
            guard let node = try Yams.compose(yaml: text, .basic, Constructor([:], [:], [:]), .utf8) else {
                log.add(nil, "", "the style is empty")
                throw StyleError(problems: log.problems)
            }
            root = node
        } catch let error as StyleError {
            throw error
        } catch {
            throw StyleError(problems: [syntaxProblem(error, text: text, file: origin.displayName)])
        }
        let parser = StyleParser(origin: origin, log: log)
        let parsed = parser.parseDocument(root)
        guard log.isEmpty, let (document, layerNodes) = parsed else {
            throw StyleError(problems: log.problems)
        }
        var layers: [MapLayer] = []
        for (index, spec) in document.layers.enumerated() {
            let sourceNode = layerNodes[index].node["source"]
            let pathNode = sourceNode.flatMap { node in node.mapping.flatMap { log.entries(of: node, $0)["path"] } }
            if let source = SourceFactory.makeSource(spec.source, keyPath: "layers[\(layerNodes[index].index)].source",
                                                     node: pathNode ?? layerNodes[index].node,
                                                     log: log, remote: remote,
                                                     styleVariables: Set(document.environmentVariables)) {
                layers.append(MapLayer(spec: spec, source: source))
            }
        }
        guard log.isEmpty else { throw StyleError(problems: log.problems) }
        return MapStyle(document: document, layers: layers, origin: origin, notes: log.notes)
    }

    private static func syntaxProblem(_ error: Error, text: String, file: String) -> StyleProblem {
        guard let yamlError = error as? YamlError else {
            return StyleProblem(file: file, line: nil, keyPath: "", message: "YAML syntax error: \(error)")
        }
        switch yamlError {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            if problem.hasPrefix("Maximum nesting level reached") {
                return StyleProblem(file: file, line: mark.line, keyPath: "",
                                    message: "lists and mappings are nested too deeply (more than 1000 levels) at column \(mark.column)")
            }
            let detail = context.map { "\($0.text) \(problem)" } ?? problem
            return StyleProblem(file: file, line: mark.line, keyPath: "",
                                message: "YAML syntax error at column \(mark.column): \(detail)")
        case .reader(let problem, let offset, _, _):
            guard let offset, let position = TextPosition(byteOffset: offset, in: Data(text.utf8)) else {
                return StyleProblem(file: file, line: nil, keyPath: "", message: "YAML syntax error: \(problem)")
            }
            return StyleProblem(file: file, line: position.line, keyPath: "",
                                message: "YAML syntax error at column \(position.column): \(problem)")
        case .duplicatedKeysInMapping(let keys, let context):
            if let duplicate = DuplicateKeyFinder.first(in: text, among: Set(keys)) {
                return StyleProblem(file: file, line: duplicate.line, keyPath: "",
                                    message: "duplicate key '\(duplicate.key)' at column \(duplicate.column) (first on line \(duplicate.firstLine))")
            }
            let names = keys.map { "'\($0)'" }.joined(separator: ", ")
            return StyleProblem(file: file, line: context.mark.line, keyPath: "",
                                message: "duplicate key \(names) (first used on this line)")
        default:
            let summary = "\(yamlError)".split(separator: "\n").first.map(String.init) ?? ""
            return StyleProblem(file: file, line: nil, keyPath: "", message: "YAML syntax error: \(summary)")
        }
    }
}
