import Foundation

/// One map of a batch, read from a manifest row: where to write it and what it shows.
///
/// Keys: `output` (required; a relative path inside the batch's output folder), `center`
/// (`LAT,LON`) with `zoom`, or `bbox` (`W,S,E,N`) with optional `padding` and
/// `fractional-zoom`; `size` (`WxH`, default 800x600), `scale` (default 1), `style` (a built-in
/// name or a style file relative to the manifest's folder, default `default`), `format`
/// (default: from the output's extension), `quality` (1…100, default 90), `png-compression`
/// (fast, default, small or 0…9) and `id` (default: the output).
public struct BatchJob: Sendable {
    public static let keys = ["id", "output", "center", "zoom", "bbox", "padding", "fractional-zoom", "size",
                              "scale", "style", "format", "quality", "png-compression"]

    public let id: String
    public let output: String
    public let area: RenderRequest.Area
    public let width: Int
    public let height: Int
    public let scale: Double
    public let style: String
    public let format: ImageFormat
    public let quality: Int
    public let pngCompression: PNGCompression

    /// Reads a job from a row's fields; the error names the key and what to write.
    public init(fields: [String: String]) throws(ManifestError) {
        if let unknown = fields.keys.sorted().first(where: { !Self.keys.contains($0) }) {
            throw ManifestError("unknown key '\(unknown)' (known: \(Self.keys.joined(separator: ", ")))")
        }
        guard let output = fields["output"], !output.isEmpty else {
            throw ManifestError("no 'output': name the image to write, e.g. \"maps/london.png\"")
        }
        guard !output.hasPrefix("/"), !output.split(separator: "/").contains(".."), output != "-" else {
            throw ManifestError("output '\(output)' must be a relative path inside the output folder (no leading / or ..)")
        }
        self.output = output
        id = fields["id"] ?? output
        style = fields["style"] ?? "default"
        func number(_ key: String) throws(ManifestError) -> Double? {
            guard let text = fields[key] else { return nil }
            guard let value = Double(text.trimmingSpaces), value.isFinite else {
                throw ManifestError("\(key) '\(text)' is not a number")
            }
            return value
        }
        func integer(_ key: String) throws(ManifestError) -> Int? {
            guard let text = fields[key] else { return nil }
            guard let value = Int(text.trimmingSpaces) else {
                throw ManifestError("\(key) '\(text)' is not a whole number")
            }
            return value
        }
        if let text = fields["size"] {
            do {
                (width, height) = try CoordinateText.size(text)
            } catch {
                throw ManifestError("size '\(text)': \(error)")
            }
        } else {
            (width, height) = (800, 600)
        }
        scale = try number("scale") ?? 1
        quality = try integer("quality") ?? 90
        guard (1...100).contains(quality) else { throw ManifestError("quality \(quality) is outside 1…100") }
        if let text = fields["png-compression"] {
            guard let compression = PNGCompression(text) else {
                throw ManifestError("png-compression '\(text)': expected \(PNGCompression.accepted)")
            }
            pngCompression = compression
        } else {
            pngCompression = .default
        }
        let padding = try integer("padding") ?? 0
        guard padding >= 0 else { throw ManifestError("padding \(padding) must be 0 or more pixels") }
        let fractional: Bool
        switch fields["fractional-zoom"]?.lowercased() {
        case nil, "false", "0", "no": fractional = false
        case "true", "1", "yes": fractional = true
        case let other?: throw ManifestError("fractional-zoom '\(other)': expected true or false")
        }
        switch (fields["center"], fields["bbox"]) {
        case (.some, .some):
            throw ManifestError("give either center (with zoom) or bbox, not both")
        case (.some(let text), nil):
            let center: LonLat
            do { center = try CoordinateText.center(text) } catch { throw ManifestError("center '\(text)': \(error)") }
            guard let zoom = try number("zoom") else { throw ManifestError("center needs a zoom, e.g. \"zoom\": 12") }
            area = .center(center, zoom: zoom)
        case (nil, .some(let text)):
            if fields["zoom"] != nil { throw ManifestError("zoom cannot be used with bbox (the zoom is chosen to fit)") }
            do {
                area = .bbox(try CoordinateText.bbox(text), padding: padding, fractionalZoom: fractional)
            } catch {
                throw ManifestError("bbox '\(text)': \(error)")
            }
        case (nil, nil):
            throw ManifestError("no area: give center (LAT,LON) with zoom, or bbox (W,S,E,N)")
        }
        let named = ImageFormat(pathExtension: OutputPath.pathExtension(of: output))
        switch (fields["format"], named) {
        case (nil, let named?):
            format = named
        case (nil, nil):
            throw ManifestError("cannot tell the image format of '\(output)': name it .png, .jpg, .webp, .pdf or .svg, or give format")
        case (let text?, _):
            guard let given = ImageFormat(rawValue: text.lowercased()) else {
                throw ManifestError("format '\(text)' is not one of \(ImageFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if let named, named != given {
                throw ManifestError("format \(given.rawValue) contradicts the output name '\(output)'")
            }
            format = given
        }
    }
}
