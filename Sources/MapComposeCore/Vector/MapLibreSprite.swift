import Foundation
import MapLibreStyleSpec

/// One icon of a style's sprite.
struct SpriteIcon: @unchecked Sendable {
    let image: RasterImage
    /// Image pixels per CSS pixel.
    let pixelRatio: Double
}

/// Reads a MapLibre sprite (`sprite` in the style: a URL or path without extension; the index
/// is `<sprite>.json`, the sheet `<sprite>.png`) into its icons.
enum MapLibreSprite {
    static func load(_ location: String, base: URL?, remote: RemoteEnvironment) -> Result<[String: SpriteIcon], MapLibreSourceError> {
        func bytes(_ suffix: String) -> Result<Data, MapLibreSourceError> {
            let text = location + suffix
            if MapLibreSourceOpener.isRemote(text) {
                return RemoteDocument.fetch(EnvironmentReference(text), kind: "sprite\(suffix)",
                                            options: RemoteOptions(layer: "maplibre-sprite"), environment: remote) {
                    (data: Data) throws(RemoteDocument.Failure) -> Data in data
                }.mapError { MapLibreSourceError("sprite", $0.description) }
            }
            let path = text.hasPrefix("file://") ? String(text.dropFirst("file://".count)) : text
            do {
                return .success(try PathStatus.read(MapLibreSourceOpener.file(path, base: base)))
            } catch {
                return .failure(MapLibreSourceError("sprite", "cannot read '\(text)': \(error.reason)"))
            }
        }
        let index: JSONValue, sheet: RasterImage
        switch bytes(".json") {
        case .failure(let error): return .failure(error)
        case .success(let data):
            guard let json = try? JSONValue.parse(bytes: [UInt8](data)), case .object = json else {
                return .failure(MapLibreSourceError("sprite", "'\(location).json' is not a JSON object"))
            }
            index = json
        }
        switch bytes(".png") {
        case .failure(let error): return .failure(error)
        case .success(let data):
            do {
                sheet = try TileDecoder.decode(data)
            } catch {
                return .failure(MapLibreSourceError("sprite", "'\(location).png': \(error)"))
            }
        }
        var icons: [String: SpriteIcon] = [:]
        for (name, entry) in index.object?.members ?? [] {
            guard let x = entry["x"]?.number, let y = entry["y"]?.number, let width = entry["width"]?.number,
                  let height = entry["height"]?.number, width >= 1, height >= 1, x >= 0, y >= 0,
                  x + width <= Double(sheet.width), y + height <= Double(sheet.height),
                  let image = try? sheet.cropped(x: Int(x), y: Int(y), width: Int(width), height: Int(height)) else { continue }
            let ratio = entry["pixelRatio"]?.number ?? 1
            icons[name] = SpriteIcon(image: image, pixelRatio: ratio > 0 && ratio.isFinite ? ratio : 1)
        }
        return .success(icons)
    }
}
