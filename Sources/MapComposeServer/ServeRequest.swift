import Foundation
import MapComposeCore

/// What a map URL asks for, read from its query in the command line's grammar (the same
/// `MapArguments` a `render` command line fills): `center`, `zoom`, `bbox`, `padding`,
/// `fractional_zoom`, `size`, `scale`, `quality`, and the repeatable `marker`, `path`,
/// `polygon`, `circle` and `text`.
struct StaticMapQuery {
    var arguments = MapArguments()
    var quality = 90
    /// The parameter that took the overlay count past the limit, if one did.
    var overlayBeyondLimit: String?

    static let parameterNames = ["center", "zoom", "bbox", "padding", "fractional_zoom", "size", "scale", "quality",
                                 "marker", "path", "polygon", "circle", "text"]

    init(_ query: QueryParameters, maxOverlays: Int) throws(ServeProblem) {
        for (name, _) in query.pairs where !Self.parameterNames.contains(name) {
            throw .badParameter("unknown parameter '\(name.messageExcerpt)' (expected one of: \(Self.parameterNames.joined(separator: ", ")))",
                                name.messageExcerpt)
        }
        arguments.center = try query.single("center")
        arguments.bbox = try query.single("bbox")
        arguments.zoom = try Self.number(query, "zoom", Double.init)
        arguments.padding = try Self.number(query, "padding", { Int($0) }) ?? 0
        arguments.scale = try Self.number(query, "scale", Double.init) ?? 1
        arguments.size = try query.single("size") ?? "512x512"
        quality = try Self.number(query, "quality", { Int($0) }) ?? 90
        guard (1...100).contains(quality) else { throw .badParameter("quality \(quality): expected 1…100", "quality") }
        if let fractional = try query.single("fractional_zoom") {
            switch fractional {
            case "true", "1", "": arguments.fractionalZoom = true
            case "false", "0": arguments.fractionalZoom = false
            default: throw .badParameter("fractional_zoom '\(fractional.messageExcerpt)': expected true or false", "fractional_zoom")
            }
        }
        var count = 0
        for (name, value) in query.pairs {
            guard let kind = OverlayKind(rawValue: name) else { continue }
            count += 1
            if count > maxOverlays {
                throw .badParameter("more than \(maxOverlays) overlays (the server's limits.max_overlays)", name)
            }
            arguments.overlays.append(kind, value)
        }
    }

    /// A number parameter; a value that is not one is refused naming it.
    private static func number<T>(_ query: QueryParameters, _ name: String, _ convert: (String) -> T?) throws(ServeProblem) -> T? {
        guard let text = try query.single(name) else { return nil }
        guard let value = convert(text.trimmingCharacters(in: .whitespaces)) else {
            throw .badParameter("\(name) '\(text.messageExcerpt)': expected a number", name)
        }
        if let double = value as? Double, !double.isFinite {
            throw .badParameter("\(name) '\(text.messageExcerpt)': expected a finite number", name)
        }
        return value
    }
}

/// A tile URL's last parts: `{z}/{x}/{y}[@2x].{png|jpg|webp}`.
struct TileAddress: Equatable {
    let z: Int
    let x: Int
    let y: Int
    let scale: Double
    let format: ImageFormat

    /// The highest zoom of tiles served.
    static let maxZoom = 24

    init(z zText: String, x xText: String, y yText: String) throws(ServeProblem) {
        guard let dot = yText.lastIndex(of: ".") else { throw .notFound("tile address without a format (.png, .jpg or .webp)") }
        var yPart = String(yText[..<dot])
        guard let format = ImageFormat(pathExtension: String(yText[yText.index(after: dot)...])), !format.isVector else {
            throw .notFound("tiles are .png, .jpg or .webp")
        }
        var scale = 1.0
        if yPart.hasSuffix("@2x") { scale = 2; yPart.removeLast(3) }
        guard let z = Int(zText), (0...Self.maxZoom).contains(z) else { throw .notFound("tile zoom outside 0…\(Self.maxZoom)") }
        let count = 1 << z
        guard let x = Int(xText), let y = Int(yPart), (0..<count).contains(x), (0..<count).contains(y),
              zText.allSatisfy(\.isNumber), xText.allSatisfy(\.isNumber), yPart.allSatisfy(\.isNumber) else {
            throw .notFound("no tile \(zText)/\(xText)/\(yPart) (x and y are 0…\(count - 1) at zoom \(z))")
        }
        self.z = z
        self.x = x
        self.y = y
        self.scale = scale
        self.format = format
    }

    /// The tile's center: a 256-px view of zoom `z` around it is the tile.
    var center: LonLat {
        WebMercator.lonLat(from: WorldPixel(x: (Double(x) + 0.5) * 256, y: (Double(y) + 0.5) * 256), zoom: Double(z))
    }
}
