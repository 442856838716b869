import Foundation

/// A problem with one argument of a map: the argument's name as the caller spells it
/// (`--center` on the command line, `center` in a URL) and a message that says what to write.
public struct ArgumentProblem: Error, Sendable, CustomStringConvertible {
    /// The argument at fault, spelt as given (`--marker #2`, `marker`).
    public let parameter: String
    public let message: String

    public init(_ message: String, parameter: String) {
        self.message = message
        self.parameter = parameter
    }

    public var description: String { message }
}

/// How arguments are spelt in messages: `--zoom 12` on the command line, `zoom=12` in a URL.
public struct ArgumentSpelling: Sendable {
    let prefix: String
    let separator: String

    public static let commandLine = ArgumentSpelling(prefix: "--", separator: " ")
    public static let query = ArgumentSpelling(prefix: "", separator: "=")

    /// The argument's name: `--zoom` or `zoom`.
    public func name(_ base: String) -> String { prefix + base }

    /// An example of the argument with a value: `--zoom 12` or `zoom=12`.
    public func example(_ base: String, _ value: String) -> String { prefix + base + separator + value }
}

/// A map's view and size as text in the command line's grammar (`center=LAT,LON`, `zoom`,
/// `bbox=W,S,E,N`, `padding`, `size=WxH`, `scale`), with its overlays: what the `render`
/// options and the URLs of `serve` both hold, read into a `RenderRequest.Area` and a viewport
/// by the same code.
public struct MapArguments: Sendable, Equatable {
    public var center: String?
    public var zoom: Double?
    public var bbox: String?
    public var padding = 0
    public var fractionalZoom = false
    public var size = "800x600"
    public var scale = 1.0
    public var overlays = OverlayArguments()

    public init(center: String? = nil, zoom: Double? = nil, bbox: String? = nil, padding: Int = 0,
                fractionalZoom: Bool = false, size: String = "800x600", scale: Double = 1,
                overlays: OverlayArguments = OverlayArguments()) {
        self.center = center
        self.zoom = zoom
        self.bbox = bbox
        self.padding = padding
        self.fractionalZoom = fractionalZoom
        self.size = size
        self.scale = scale
        self.overlays = overlays
    }

    /// The output size in CSS pixels.
    public func dimensions(_ spelling: ArgumentSpelling) throws(ArgumentProblem) -> (width: Int, height: Int) {
        do {
            return try CoordinateText.size(size)
        } catch {
            throw ArgumentProblem("\(spelling.name("size")) '\(size)': \(error)", parameter: spelling.name("size"))
        }
    }

    /// The area the view arguments name: a center and zoom, a bbox, or (neither) the overlays' extent.
    public func area(_ spelling: ArgumentSpelling) throws(ArgumentProblem) -> RenderRequest.Area {
        let s = spelling
        switch (center, bbox) {
        case (.some, .some):
            throw ArgumentProblem("\(s.name("center")) and \(s.name("bbox")) cannot be used together", parameter: s.name("bbox"))
        case (.some(let text), nil):
            let point: LonLat
            do { point = try CoordinateText.center(text) } catch {
                throw ArgumentProblem("\(s.name("center")) '\(text)': \(error)", parameter: s.name("center"))
            }
            guard let zoom else {
                throw ArgumentProblem("\(s.name("center")) needs \(s.name("zoom")) (e.g. \(s.example("zoom", "12")))",
                                      parameter: s.name("zoom"))
            }
            return .center(point, zoom: zoom)
        case (nil, .some(let text)):
            if zoom != nil {
                throw ArgumentProblem("\(s.name("zoom")) cannot be used with \(s.name("bbox")) (the zoom is chosen to fit)",
                                      parameter: s.name("zoom"))
            }
            try checkPadding(s)
            let bounds: GeoBounds
            do { bounds = try CoordinateText.bbox(text) } catch {
                throw ArgumentProblem("\(s.name("bbox")) '\(text)': \(error)", parameter: s.name("bbox"))
            }
            return .bbox(bounds, padding: padding, fractionalZoom: fractionalZoom)
        case (nil, nil):
            if zoom != nil {
                throw ArgumentProblem("\(s.name("zoom")) needs \(s.example("center", "LAT,LON")) (e.g. \(s.example("center", "51.5,-0.12")))",
                                      parameter: s.name("center"))
            }
            try checkPadding(s)
            return .fitOverlays(padding: padding, fractionalZoom: fractionalZoom)
        }
    }

    private func checkPadding(_ s: ArgumentSpelling) throws(ArgumentProblem) {
        guard padding >= 0 else {
            throw ArgumentProblem("\(s.name("padding")) \(padding): padding must be 0 or more pixels", parameter: s.name("padding"))
        }
    }

    /// The viewport of `area` at this size and scale, fitting `overlays` for a fitted area; a
    /// message naming the arguments when the area cannot be shown at this size.
    public func viewport(_ area: RenderRequest.Area, _ dimensions: (width: Int, height: Int), overlays: [Overlay],
                         _ s: ArgumentSpelling) throws(ArgumentProblem) -> Viewport {
        do {
            return try area.viewport(width: dimensions.width, height: dimensions.height, scale: scale, overlays: overlays)
        } catch .tooSmall(let width, let height) {
            throw ArgumentProblem("\(s.example("size", size)) at \(s.example("scale", scale.exactText)) would be under 1 pixel "
                                  + "(\(width.exactText)x\(height.exactText)): use a larger \(s.name("size")) or \(s.name("scale"))",
                                  parameter: s.name("size"))
        } catch .nothingToFit {
            let kinds = ["marker", "path", "polygon", "circle", "text"].map { s.name($0) }
            let files = s.prefix.isEmpty ? "" : ", \(s.name("overlay"))"
            throw ArgumentProblem("give \(s.example("center", "LAT,LON")) with \(s.example("zoom", "Z")), or \(s.example("bbox", "W,S,E,N")), "
                                  + "or overlays (\(kinds.joined(separator: ", "))\(files)) for the view to fit", parameter: s.name("center"))
        } catch {
            let parameter: String
            switch error {
            case .invalidZoom: parameter = "zoom"
            case .invalidScale: parameter = "scale"
            case .negativePadding, .paddingTooLarge: parameter = "padding"
            case .invalidCenter: parameter = "center"
            case .invalidBounds: parameter = "bbox"
            case .beyondMercatorLimit: parameter = "marker"
            default: parameter = "size"
            }
            throw ArgumentProblem(error.description, parameter: s.name(parameter))
        }
    }
}

/// Overlays as text in the command line's grammar, by kind (repeats are several overlays), and
/// GeoJSON files. Drawn bottom first: polygons, circles, GeoJSON files, paths, text, markers.
public struct OverlayArguments: Sendable, Equatable {
    public var markers: [String] = []
    public var paths: [String] = []
    public var polygons: [String] = []
    public var circles: [String] = []
    public var texts: [String] = []
    public var files: [String] = []

    public init(markers: [String] = [], paths: [String] = [], polygons: [String] = [], circles: [String] = [],
                texts: [String] = [], files: [String] = []) {
        self.markers = markers
        self.paths = paths
        self.polygons = polygons
        self.circles = circles
        self.texts = texts
        self.files = files
    }

    public var isEmpty: Bool { count == 0 }

    /// How many overlay arguments there are (a GeoJSON file counts once).
    public var count: Int { [markers, paths, polygons, circles, texts, files].reduce(0) { $0 + $1.count } }

    /// True when these overlays may draw text: a text overlay, a labelled marker, or a GeoJSON
    /// file (whose features may carry labels).
    public var mayDrawText: Bool {
        !texts.isEmpty || !files.isEmpty || markers.contains { OverlaySyntax.mayDrawText(.marker, $0) }
    }

    /// Appends `value` to the list of `kind`'s texts.
    public mutating func append(_ kind: OverlayKind, _ value: String) {
        switch kind {
        case .marker: markers.append(value)
        case .path: paths.append(value)
        case .polygon: polygons.append(value)
        case .circle: circles.append(value)
        case .text: texts.append(value)
        }
    }

    /// The overlays, naming the argument (and which of its repeats) and the value at fault;
    /// `iconFiles` resolves a marker's `icon=` file (or refuses it).
    public func overlays(_ spelling: ArgumentSpelling = .commandLine,
                         iconFiles: @escaping OverlaySyntax.FileResolver = { URL(fileURLWithPath: $0) })
        throws(ArgumentProblem) -> [Overlay] {
        var result: [Overlay] = []
        let icons = MarkerIconCache()
        result += try parse(polygons, .polygon, spelling, iconFiles, icons)
        result += try parse(circles, .circle, spelling, iconFiles, icons)
        for (index, file) in files.enumerated() {
            let name = label(spelling.name("overlay"), index, files.count)
            let data: Data
            do {
                data = try InputFile.read(file)
            } catch {
                throw ArgumentProblem("\(name) '\(file.messageExcerpt)': cannot read it: \(error.reason)", parameter: name)
            }
            do {
                result += try GeoJSONOverlay.overlays(from: data)
            } catch {
                throw ArgumentProblem("\(name) '\(file.messageExcerpt)': \(error.reason)", parameter: name)
            }
        }
        result += try parse(paths, .path, spelling, iconFiles, icons)
        result += try parse(texts, .text, spelling, iconFiles, icons)
        result += try parse(markers, .marker, spelling, iconFiles, icons)
        return result
    }

    private func parse(_ values: [String], _ kind: OverlayKind, _ spelling: ArgumentSpelling,
                       _ files: @escaping OverlaySyntax.FileResolver, _ icons: MarkerIconCache) throws(ArgumentProblem) -> [Overlay] {
        var result: [Overlay] = []
        for (index, value) in values.enumerated() {
            do {
                result.append(try OverlaySyntax.parse(kind, value, files: files, icons: icons))
            } catch {
                let hint = error.reason.contains("expected") ? ""
                    : " (expected \(kind.syntax), then ;key=value settings: \(kind.settingKeys.joined(separator: ", ")))"
                let name = label(spelling.name(kind.rawValue), index, values.count)
                throw ArgumentProblem("\(name) '\(value.messageExcerpt)': \(error.reason)\(hint)", parameter: name)
            }
        }
        return result
    }

    /// `--marker`, or `--marker #2` when the argument is repeated.
    private func label(_ option: String, _ index: Int, _ count: Int) -> String {
        count > 1 ? "\(option) #\(index + 1)" : option
    }
}
