import Foundation
import MapLibreStyleSpec

/// One icon of a style's sprite.
struct SpriteIcon: @unchecked Sendable {
    let image: RasterImage
    /// Image pixels per CSS pixel.
    let pixelRatio: Double
    /// The columns and rows (image pixels) that stretch when the icon is fitted to its text
    /// (`stretchX`, `stretchY` in the sprite's index); empty: the whole icon stretches.
    var stretchX: [ClosedRange<Double>] = []
    var stretchY: [ClosedRange<Double>] = []
    /// The part (left, top, right, bottom, image pixels) that holds the text of a fitted icon
    /// (`content`); nil: the whole icon.
    var content: (left: Double, top: Double, right: Double, bottom: Double)?
    /// A signed distance field (`sdf` in the index), drawn in `icon-color` (see `SDFIcon`).
    var sdf = false
}

/// A style's icons: the sprite's own sheet and, where the sprite has one, its `@2x` sheet, drawn
/// instead at output scales of 1.5 and above.
struct SpriteSheets: @unchecked Sendable {
    var standard: [String: SpriteIcon] = [:]
    var double: [String: SpriteIcon]?

    /// The icons to draw at `scale` device pixels per CSS pixel.
    func icons(scale: Double) -> [String: SpriteIcon] {
        scale >= 1.5 ? double ?? standard : standard
    }
}

/// Reads a MapLibre sprite (`sprite` in the style: a URL or path without extension; the index
/// is `<sprite>.json`, the sheet `<sprite>.png`, the high-resolution ones `<sprite>@2x.json`
/// and `<sprite>@2x.png`) into its icons.
enum MapLibreSprite {
    /// The sprite and its `@2x` sheets when there are any. A missing `@2x` sheet is no problem
    /// (the sprite's own is drawn at every scale); one that is there but cannot be read is
    /// `doubleProblem`.
    /// `leftOut` says why each index entry that gives no icon was left out.
    static func loadSheets(_ location: String, base: URL?, remote: RemoteEnvironment)
        -> (sheets: Result<SpriteSheets, MapLibreSourceError>, doubleProblem: String?, leftOut: [String]) {
        let standard: Sheet
        switch load(location, base: base, remote: remote) {
        case .failure(let error): return (.failure(error), nil, [])
        case .success(let sheet): standard = sheet
        }
        let double = location + "@2x"
        let remoteSprite = MapLibreSourceOpener.isRemote(double)
        if !remoteSprite {
            let path = double.hasPrefix("file://") ? String(double.dropFirst("file://".count)) : double
            let index = MapLibreSourceOpener.file(path + ".json", base: base).path
            guard FileManager.default.fileExists(atPath: index) else {
                return (.success(SpriteSheets(standard: standard.icons)), nil, standard.leftOut)
            }
        }
        switch load(double, base: base, remote: remote, pixelRatio: 2) {
        case .success(let sheet):
            return (.success(SpriteSheets(standard: standard.icons, double: sheet.icons)), nil, standard.leftOut + sheet.leftOut)
        // A server without the sheet answers with an error: the sprite has no @2x sheet.
        case .failure where remoteSprite: return (.success(SpriteSheets(standard: standard.icons)), nil, standard.leftOut)
        case .failure(let error): return (.success(SpriteSheets(standard: standard.icons)), error.message, standard.leftOut)
        }
    }

    /// One sheet's icons, and why each index entry that gives none was left out.
    struct Sheet {
        var icons: [String: SpriteIcon] = [:]
        var leftOut: [String] = []
    }

    /// The icons of one sheet; `pixelRatio` is that of icons whose index entry names none.
    static func load(_ location: String, base: URL?, remote: RemoteEnvironment,
                     pixelRatio: Double = 1) -> Result<Sheet, MapLibreSourceError> {
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
        var result = Sheet()
        for (name, entry) in index.object?.members ?? [] {
            guard let x = entry["x"]?.number, let y = entry["y"]?.number, let width = entry["width"]?.number,
                  let height = entry["height"]?.number else {
                result.leftOut.append("'\(name)' in '\(location).json' has no numbers for x, y, width and height")
                continue
            }
            guard width >= 1, height >= 1, x >= 0, y >= 0, x + width <= Double(sheet.width), y + height <= Double(sheet.height),
                  let image = try? sheet.cropped(x: Int(x), y: Int(y), width: Int(width), height: Int(height)) else {
                let numbers = [x, y, width, height].map(\.exactText)
                result.leftOut.append("'\(name)' in '\(location).json': x \(numbers[0]), y \(numbers[1]), width \(numbers[2]), "
                                      + "height \(numbers[3]) is not a rectangle within the \(sheet.width)×\(sheet.height) sheet")
                continue
            }
            let ratio = entry["pixelRatio"]?.number ?? pixelRatio
            var icon = SpriteIcon(image: image, pixelRatio: ratio > 0 && ratio.isFinite ? ratio : pixelRatio)
            icon.stretchX = stretchZones(entry["stretchX"], size: width)
            icon.stretchY = stretchZones(entry["stretchY"], size: height)
            if let box = entry["content"]?.array?.compactMap(\.number), box.count == 4, box.allSatisfy(\.isFinite),
               box[0] >= 0, box[1] >= 0, box[0] < box[2], box[1] < box[3], box[2] <= width, box[3] <= height {
                icon.content = (box[0], box[1], box[2], box[3])
            }
            if case .bool(true)? = entry["sdf"] { icon.sdf = true }
            result.icons[name] = icon
        }
        return .success(result)
    }

    /// An index entry's `stretchX` or `stretchY`: pairs of image pixels within `size`, in order
    /// and not overlapping, rounded to whole pixels; anything else is left out.
    static func stretchZones(_ value: JSONValue?, size: Double) -> [ClosedRange<Double>] {
        var zones: [ClosedRange<Double>] = []
        for pair in value?.array ?? [] {
            guard let ends = pair.array?.compactMap(\.number), ends.count == 2, ends[0].isFinite, ends[1].isFinite,
                  ends[0] >= (zones.last?.upperBound ?? 0), ends[0] < ends[1], ends[1] <= size else { continue }
            let zone = ends[0].rounded()...ends[1].rounded()
            if zone.upperBound > zone.lowerBound { zones.append(zone) }
        }
        return zones
    }
}
