import Foundation

/// Reads overlays written as text, as on the command line (`--marker 51.5,-0.12,red,A`,
/// `--path "51.5,-0.12;48.85,2.35;color=#c00;width=4"`) or in a style's `overlays:` list
/// (the same main part under the kind's key, the settings as keys beside it). Every problem
/// throws an `OverlayError` that says what to write instead.
public enum OverlaySyntax {
    /// Resolves a file named by an overlay (an icon) to a URL, or says why it cannot be used.
    public typealias FileResolver = @Sendable (String) throws(OverlayError) -> URL

    /// Parses `MAIN;key=value;…`. For paths and polygons, parts without `=` are points (and
    /// `enc=…` may come first); for text, the first part and any that are not a known setting
    /// belong to the text. `settings` are given beside the text (a style's keys); each may be
    /// given once, in the text or beside it. A marker's icon is read through `icons`: pass one
    /// cache to every overlay of a list, so that each icon file is read once.
    public static func parse(_ kind: OverlayKind, _ text: String, settings given: [String: String] = [:],
                             files: FileResolver, icons: MarkerIconCache = MarkerIconCache()) throws(OverlayError) -> Overlay {
        let (main, settings) = try split(kind, text, settings: given)
        return try parse(kind, main: main, settings: settings, files: files, icons: icons)
    }

    /// True when the overlay written as `text` may draw text: a text overlay, or a marker with a
    /// label (the fourth part of its main part). Text that does not parse may: its error comes
    /// when it is parsed.
    public static func mayDrawText(_ kind: OverlayKind, _ text: String) -> Bool {
        switch kind {
        case .text: return true
        case .path, .polygon, .circle: return false
        case .marker:
            guard let (main, _) = try? split(kind, text, settings: [:]) else { return true }
            let parts = main.split(separator: ",", maxSplits: 3, omittingEmptySubsequences: false)
            return parts.count > 3 && !parts[3].isEmpty
        }
    }

    /// `MAIN;key=value;…` as its main part and its settings, with `given` (see `parse`).
    private static func split(_ kind: OverlayKind, _ text: String,
                              settings given: [String: String]) throws(OverlayError) -> (main: String, settings: [String: String]) {
        var tokens = text.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        var main: [String] = [], settings = given
        if kind == .text { main.append(tokens.removeFirst()) }
        for token in tokens {
            if let equals = token.firstIndex(of: "=") {
                let key = token[..<equals].trimmingSpaces.lowercased()
                if kind.settingKeys.contains(key) {
                    guard settings[key] == nil else { throw OverlayError("setting '\(key.messageExcerpt)' is given twice") }
                    settings[key] = String(token[token.index(after: equals)...])
                    continue
                }
                if kind != .text {
                    throw OverlayError("unknown setting '\(key.messageExcerpt)' (expected one of: \(kind.settingKeys.joined(separator: ", ")))")
                }
            }
            main.append(token)
        }
        return (main.joined(separator: ";"), settings)
    }

    /// Parses the main part of `kind` with its settings already separated.
    public static func parse(_ kind: OverlayKind, main: String, settings: [String: String],
                             files: FileResolver, icons: MarkerIconCache = MarkerIconCache()) throws(OverlayError) -> Overlay {
        for key in settings.keys where !kind.settingKeys.contains(key) {
            throw OverlayError("unknown setting '\(key)' (expected one of: \(kind.settingKeys.joined(separator: ", ")))")
        }
        switch kind {
        case .marker: return try marker(main, settings, files, icons)
        case .path: return try path(main, settings)
        case .polygon: return try polygon(main, settings)
        case .circle: return try circle(main, settings)
        case .text: return try text(main, settings)
        }
    }

    private static func marker(_ main: String, _ settings: [String: String], _ files: FileResolver,
                               _ icons: MarkerIconCache) throws(OverlayError) -> Overlay {
        let parts = main.split(separator: ",", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2 else { throw OverlayError("expected \(OverlayKind.marker.syntax), e.g. 51.5,-0.12,red,A") }
        var marker = MarkerOverlay(position: try position(parts[0], parts[1]))
        if parts.count > 2, !parts[2].trimmingSpaces.isEmpty {
            marker.color = try color(parts[2], "colour")
        }
        if parts.count > 3, !parts[3].isEmpty { marker.label = parts[3] }
        let size = try settings["size"].map { text throws(OverlayError) in try markerSize(text, "size") } ?? .medium
        switch settings["symbol"]?.lowercased() {
        case nil, "pin": marker.symbol = .pin(size)
        case "circle": marker.symbol = .dot(size)
        case let other?: throw OverlayError("symbol '\(other.messageExcerpt)' is not pin or circle")
        }
        if let path = settings["icon"] {
            let url = try files(path)
            let anchor = try settings["anchor"].map { text throws(OverlayError) in try pair(text, "anchor", "X,Y in icon pixels") }
            marker.symbol = .icon(try icons.icon(url, anchor: anchor))
        } else if settings["anchor"] != nil {
            throw OverlayError("anchor is for icon markers: add icon=FILE.png")
        }
        return .marker(marker)
    }

    private static func path(_ main: String, _ settings: [String: String]) throws(OverlayError) -> Overlay {
        let points = try positions(main, settings["enc"], kind: .path, minimum: 2)
        var stroke = PathOverlay.defaultStroke
        if let text = settings["color"] { stroke.color = try color(text, "color") }
        if let text = settings["width"] { stroke.width = try number(text, "width", in: StrokeStyle.widthRange) }
        if let text = settings["opacity"] { stroke.color = stroke.color.multiplyingAlpha(by: try number(text, "opacity", in: 0...1)) }
        return .path(PathOverlay(points: points, stroke: stroke, geodesic: try flag(settings["geodesic"], "geodesic")))
    }

    private static func polygon(_ main: String, _ settings: [String: String]) throws(OverlayError) -> Overlay {
        let points = try positions(main, settings["enc"], kind: .polygon, minimum: 3)
        var polygon = PolygonOverlay(rings: [points], geodesic: try flag(settings["geodesic"], "geodesic"))
        try applyAreaStyle(settings, fill: &polygon.fill, stroke: &polygon.stroke)
        return .polygon(polygon)
    }

    private static func circle(_ main: String, _ settings: [String: String]) throws(OverlayError) -> Overlay {
        let parts = main.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else { throw OverlayError("expected \(OverlayKind.circle.syntax), e.g. 51.5,-0.12,5000") }
        let radius = try number(parts[2], "radius", in: CircleOverlay.radiusRange)
        guard radius > 0 else { throw OverlayError("radius must be more than 0 metres") }
        var circle = CircleOverlay(center: try position(parts[0], parts[1]), radius: radius)
        try applyAreaStyle(settings, fill: &circle.fill, stroke: &circle.stroke)
        return .circle(circle)
    }

    private static func text(_ main: String, _ settings: [String: String]) throws(OverlayError) -> Overlay {
        let parts = main.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, !parts[2].isEmpty else {
            throw OverlayError("expected \(OverlayKind.text.syntax), e.g. 51.5,-0.12,London")
        }
        var text = TextOverlay(position: try position(parts[0], parts[1]), text: parts[2])
        if let value = settings["color"] { text.color = try color(value, "color") }
        if let value = settings["size"] { text.size = try number(value, "size", in: TextOverlay.sizeRange) }
        if let value = settings["halo"] { text.halo = try optionalColor(value, "halo") }
        return .text(text)
    }

    /// `fill`, `stroke` (each a colour or `none`) and `width` for polygons and circles.
    private static func applyAreaStyle(_ settings: [String: String], fill: inout RGBA?,
                                       stroke: inout StrokeStyle?) throws(OverlayError) {
        if let text = settings["fill"] { fill = try optionalColor(text, "fill") }
        var outline = stroke ?? PolygonOverlay.defaultStroke
        if let text = settings["width"] { outline.width = try number(text, "width", in: StrokeStyle.widthRange) }
        if let text = settings["stroke"] {
            guard let color = try optionalColor(text, "stroke") else { stroke = nil; return }
            outline.color = color
        }
        stroke = outline
    }

    private static func positions(_ main: String, _ encoded: String?, kind: OverlayKind,
                                  minimum: Int) throws(OverlayError) -> [LonLat] {
        let written = main.split(separator: ";").map { String($0.trimmingSpaces) }.filter { !$0.isEmpty }
        var points: [LonLat] = []
        if let encoded {
            guard written.isEmpty else { throw OverlayError("give points or enc=POLYLINE, not both") }
            points = try EncodedPolyline.decode(String(encoded.trimmingSpaces))
            for (index, point) in points.enumerated() {
                _ = try position(String(point.lat), String(point.lon), "encoded point \(index + 1): ")
            }
        } else {
            for (index, item) in written.enumerated() {
                let parts = item.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                guard parts.count == 2 else {
                    throw OverlayError("point \(index + 1) '\(item.messageExcerpt)': expected LAT,LON (points are separated by ;)")
                }
                points.append(try position(parts[0], parts[1], "point \(index + 1): "))
            }
        }
        guard points.count >= minimum else {
            throw OverlayError("a \(kind.rawValue) needs at least \(minimum) points, got \(points.count) "
                               + "(expected \(kind.syntax))")
        }
        return points
    }

    // MARK: values shared with GeoJSON overlays

    /// A latitude and a longitude in degrees, checked against ±90/±180.
    static func position(_ latText: String, _ lonText: String, _ prefix: String = "") throws(OverlayError) -> LonLat {
        guard let lat = Double(latText.trimmingSpaces), lat.isFinite,
              let lon = Double(lonText.trimmingSpaces), lon.isFinite else {
            throw OverlayError("\(prefix)'\("\(latText),\(lonText)".messageExcerpt)' is not LAT,LON in degrees")
        }
        return try checked(LonLat(lon: lon, lat: lat), prefix)
    }

    /// `point` when its latitude is within ±90 and its longitude within ±180.
    static func checked(_ point: LonLat, _ prefix: String = "") throws(OverlayError) -> LonLat {
        guard abs(point.lat) <= 90 else { throw OverlayError("\(prefix)latitude \(point.lat.exactText) is outside -90…90") }
        guard abs(point.lon) <= 180 else { throw OverlayError("\(prefix)longitude \(point.lon.exactText) is outside -180…180") }
        return point
    }

    /// A colour: `#rgb`, `#rrggbb`, `#rrggbbaa` (the `#` may be left out) or a CSS name.
    static func color(_ text: String, _ key: String) throws(OverlayError) -> RGBA {
        let trimmed = String(text.trimmingSpaces)
        if let color = RGBA(parsing: trimmed) ?? RGBA(parsing: "#" + trimmed) { return color }
        throw OverlayError("\(key) '\(text.messageExcerpt)' is not a colour (use #rgb, #rrggbb, #rrggbbaa or one of: "
                           + "black, white, red, green, blue, yellow, gray, orange)")
    }

    /// A colour, or nil for `none`.
    static func optionalColor(_ text: String, _ key: String) throws(OverlayError) -> RGBA? {
        text.trimmingSpaces.lowercased() == "none" ? nil : try color(text, key)
    }

    static func number(_ text: String, _ key: String, in range: ClosedRange<Double>) throws(OverlayError) -> Double {
        guard let value = Double(text.trimmingSpaces), !value.isNaN else {
            throw OverlayError("\(key) '\(text.messageExcerpt)' is not a number")
        }
        guard range.contains(value) else {
            throw OverlayError("\(key) \(value.exactText) is outside \(range.lowerBound.exactText)…\(range.upperBound.exactText)")
        }
        return value
    }

    static func markerSize(_ text: String, _ key: String) throws(OverlayError) -> MarkerSize {
        guard let size = MarkerSize(rawValue: text.trimmingSpaces.lowercased()) else {
            throw OverlayError("\(key) '\(text.messageExcerpt)' is not small, medium or large")
        }
        return size
    }

    private static func flag(_ text: String?, _ key: String) throws(OverlayError) -> Bool {
        switch text?.trimmingSpaces.lowercased() {
        case nil, "false", "no": return false
        case "", "true", "yes": return true
        case let other?: throw OverlayError("\(key) '\(other.messageExcerpt)' is not true or false")
        }
    }

    private static func pair(_ text: String, _ key: String, _ meaning: String) throws(OverlayError) -> (x: Double, y: Double) {
        let parts = text.split(separator: ",").map { Double($0.trimmingSpaces) }
        guard parts.count == 2, let x = parts[0], let y = parts[1], x.isFinite, y.isFinite else {
            throw OverlayError("\(key) '\(text.messageExcerpt)': expected \(meaning)")
        }
        return (x, y)
    }
}
