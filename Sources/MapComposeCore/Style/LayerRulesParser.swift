import Foundation
import Yams

/// The layer keys that say how a layer mixes, when it shows and what fills missing tiles:
/// `native`, `fade`, `crossfade`, `fallback`, `missing`, `resampling`.
extension StyleParser {
    static let layerRuleKeys = ["native", "fade", "crossfade", "fallback", "missing", "resampling"]

    /// Reads the layer-rule keys of `map` into `spec`, logging every bad value.
    func parseLayerRules(_ map: StyleMapping, into spec: inout LayerSpec) {
        if let native = map.numberPair("native", in: 0...Double(TileMatrix.maxLevel)) {
            if native.lowerBound.rounded() == native.lowerBound, native.upperBound.rounded() == native.upperBound {
                spec.native = Int(native.lowerBound)...Int(native.upperBound)
            } else {
                log.add(map.value("native"), map.path("native"), "expected whole levels [min, max]")
            }
        }
        if let node = map.value("fade"), let fade = StyleMapping(node, keyPath: map.path("fade"), log: log) {
            fade.rejectUnknownKeys(["in", "out"])
            let ramps = ZoomFade(fadeIn: fade.numberPair("in", in: 0...30), fadeOut: fade.numberPair("out", in: 0...30))
            if let fadeIn = ramps.fadeIn, let fadeOut = ramps.fadeOut, fadeOut.lowerBound < fadeIn.upperBound {
                log.add(fade.value("out"), fade.path("out"),
                        "fades out from \(fadeOut.lowerBound.exactText), before the fade in ends at \(fadeIn.upperBound.exactText)")
            }
            spec.fade = ramps
        }
        spec.crossfade = map.bool("crossfade") ?? false
        if let node = map.value("fallback"), let fallback = StyleMapping(node, keyPath: map.path("fallback"), log: log) {
            fallback.rejectUnknownKeys(["parents", "children"])
            let depth = 0...TileFallback.maxDepth
            spec.fallback = TileFallback(parents: fallback.integer("parents", in: depth) ?? TileFallback.standard.parents,
                                         children: fallback.integer("children", in: depth) ?? TileFallback.standard.children)
        }
        if let missing = map.string("missing") {
            spec.missing = missingFill(missing, map)
        }
        if let name = map.string("resampling") {
            if let resampling = Resampling(rawValue: name) {
                spec.resampling = resampling
            } else {
                log.add(map.value("resampling"), map.path("resampling"),
                        "unknown resampling '\(name)' (expected one of: \(Resampling.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
        }
    }

    /// `transparent`, a colour, or the path of an image drawn in place of each missing tile.
    private func missingFill(_ text: String, _ map: StyleMapping) -> MissingTileFill {
        if text == "transparent" { return .transparent }
        if text.hasPrefix("#") || RGBA(parsing: text) != nil {
            guard let color = RGBA(parsing: text) else {
                log.add(map.value("missing"), map.path("missing"), StyleMapping.notAColour("'\(text)'"))
                return .transparent
            }
            return .color(color)
        }
        do {
            return .image(try TileDecoder.decode(try origin.data(at: text)), path: text)
        } catch let error as StyleOriginError {
            log.add(map.value("missing"), map.path("missing"),
                    "expected transparent, a colour or an image file: \(error.description)")
        } catch {
            log.add(map.value("missing"), map.path("missing"), "'\(text)' is not a usable image: \(error)")
        }
        return .transparent
    }
}
