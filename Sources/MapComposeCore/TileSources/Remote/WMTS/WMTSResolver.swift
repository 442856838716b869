import Foundation

/// Reads a WMTS layer's capabilities (through the disk cache) and makes its tile source:
/// the layer, tile matrix set, style and format the style names, or the only ones offered.
public enum WMTSResolver {
    public static func resolve(_ spec: WMTSSourceSpec, environment: RemoteEnvironment) throws(WMTSCapabilitiesError) -> WMTSTileSource {
        let fetched = RemoteDocument.fetch(spec.url, kind: "wmts-capabilities", options: spec.remote,
                                           environment: environment) { data throws(RemoteDocument.Failure) in
            do throws(WMTSCapabilitiesError) {
                return try WMTSCapabilities(xml: data)
            } catch {
                throw RemoteDocument.Failure(description: error.reason)
            }
        }
        let capabilities: WMTSCapabilities
        switch fetched {
        case .success(let document): capabilities = document
        case .failure(let failure): throw WMTSCapabilitiesError(reason: failure.description, unreachable: failure.unreachable)
        }
        let layer = try choose(spec.layer, among: capabilities.layers.map(\.identifier), what: "layer", key: "layer")
            .flatMap(capabilities.layer)!
        let linked = layer.tileMatrixSetLinks.map(\.tileMatrixSet)
        let setName = try choose(spec.tileMatrixSet, among: linked, what: "tile matrix set of layer '\(layer.identifier)'",
                                 key: "tile-matrix-set", preferring: linked.filter { capabilities.tileMatrixSet($0)?.isWebMercator == true })!
        guard let set = capabilities.tileMatrixSet(setName) else {
            throw WMTSCapabilitiesError(reason: "layer '\(layer.identifier)' links tile matrix set '\(setName)', which the document does not define")
        }
        let style = try choose(spec.style, among: layer.styles, what: "style of layer '\(layer.identifier)'", key: "style",
                               preferring: Array(layer.styles.prefix(1))) ?? "default"
        let formats = layer.formats.isEmpty ? layer.resourceURLs.map(\.format) : layer.formats
        let format = try choose(spec.format, among: formats, what: "format of layer '\(layer.identifier)'", key: "format",
                                preferring: formats.filter { $0 == "image/png" })!
        let matrix = try set.tileMatrix()
        let link = layer.tileMatrixSetLinks.first { $0.tileMatrixSet == setName }
        let address: WMTSTileAddress
        if let rest = layer.resourceURLs.first(where: { $0.resourceType == "tile" && $0.format == format }) {
            address = .rest(template: rest.template)
        } else {
            let base = capabilities.getTileURL ?? String(spec.url.text.prefix { $0 != "?" }) + "?"
            address = .kvp(base: base)
        }
        return WMTSTileSource(spec: spec, matrix: matrix, levelIdentifiers: set.levels.map(\.identifier),
                              limits: link?.limits ?? [:], address: address,
                              request: .init(layer: layer.identifier, style: style, tileMatrixSet: setName, format: format),
                              environment: environment)
    }

    /// `given` when offered (else an error listing the choices); with nothing given, the only
    /// choice, else the first preferred one, else an error asking for `key`.
    static func choose(_ given: String?, among choices: [String], what: String, key: String,
                       preferring preferred: [String] = []) throws(WMTSCapabilitiesError) -> String? {
        let listed = choices.map { "'\($0)'" }.joined(separator: ", ")
        if let given {
            guard choices.contains(given) else {
                throw WMTSCapabilitiesError(reason: "no \(what) '\(given)' (the capabilities offer \(listed.isEmpty ? "none" : listed))")
            }
            return given
        }
        if choices.count == 1 { return choices[0] }
        if let first = preferred.first { return first }
        if choices.isEmpty { return nil }
        throw WMTSCapabilitiesError(reason: "the capabilities offer more than one \(what): \(listed); name one with '\(key)'")
    }
}
