import Foundation
import MapComposeCore

/// The Mapbox Static Images API's path, as an alias of the static map:
/// `/styles/v1/{user}/{name}/static/[{overlay}/]{lon},{lat},{zoom}[,{bearing}[,{pitch}]]|[w,s,e,n]|auto/{w}x{h}[@2x]`.
/// Overlays (`pin-s`, `pin-l`, `path-` with an encoded polyline, `geojson()`) become the command
/// line's overlay texts; the zoom is GL's (a 512-px world at zoom 0), one less than mapcompose's.
struct MapboxStaticPath {
    var arguments = MapArguments()
    /// GeoJSON overlays, drawn as `--overlay` files are.
    var geojson: [Data] = []

    /// Reads the parts after `static`; `maxOverlays` bounds the overlays.
    init(_ parts: [String], maxOverlays: Int) throws(ServeProblem) {
        guard parts.count == 2 || parts.count == 3 else {
            throw .notFound("expected static/[OVERLAYS/]LON,LAT,ZOOM|[W,S,E,N]|auto/WIDTHxHEIGHT[@2x]")
        }
        var size = parts[parts.count - 1]
        if size.hasSuffix("@2x") { arguments.scale = 2; size.removeLast(3) }
        arguments.size = size
        if parts.count == 3 { try readOverlays(parts[0], maxOverlays: maxOverlays) }
        let view = parts[parts.count - 2]
        if view == "auto" {
            arguments.fractionalZoom = true
        } else if view.hasPrefix("[") && view.hasSuffix("]") {
            arguments.bbox = String(view.dropFirst().dropLast())
            arguments.fractionalZoom = true
        } else {
            let numbers = view.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard numbers.count >= 3, numbers.count <= 5, let zoom = Double(numbers[2]), zoom.isFinite else {
                throw .badParameter("'\(view.messageExcerpt)': expected LON,LAT,ZOOM[,BEARING[,PITCH]], [W,S,E,N] or auto", "position")
            }
            for (index, name) in [(3, "bearing"), (4, "pitch")] where numbers.count > index {
                guard let value = Double(numbers[index]), value == 0 || (name == "bearing" && abs(value) == 360) else {
                    throw .badParameter("\(name) '\(numbers[index].messageExcerpt)': only 0 is drawn (maps are north up and flat)", name)
                }
            }
            arguments.center = "\(numbers[1]),\(numbers[0])"
            arguments.zoom = zoom + 1
        }
    }

    /// Splits the overlay part at commas outside parentheses and reads each overlay.
    private mutating func readOverlays(_ text: String, maxOverlays: Int) throws(ServeProblem) {
        var items: [String] = [], current = "", depth = 0
        for character in text {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if character == ",", depth == 0 { items.append(current); current = ""; continue }
            current.append(character)
        }
        items.append(current)
        guard items.count <= maxOverlays else {
            throw .badParameter("more than \(maxOverlays) overlays (the server's limits.max_overlays)", "overlay")
        }
        for item in items { try readOverlay(item) }
    }

    private mutating func readOverlay(_ item: String) throws(ServeProblem) {
        guard let open = item.firstIndex(of: "("), item.hasSuffix(")") else {
            throw .badParameter("overlay '\(item.messageExcerpt)': expected pin-s(LON,LAT), pin-l(…), path-…(POLYLINE) or geojson(…)", "overlay")
        }
        let head = String(item[..<open]), body = String(item[item.index(after: open)..<item.index(before: item.endIndex)])
        if head == "geojson" {
            geojson.append(Data(body.utf8))
        } else if head.hasPrefix("pin-s") || head.hasPrefix("pin-l") {
            let position = body.split(separator: ",").map(String.init)
            guard position.count == 2 else { throw .badParameter("overlay '\(item.messageExcerpt)': expected pin-s(LON,LAT)", "overlay") }
            var label = "", color = ""
            var rest = head.dropFirst(5)
            if let plus = rest.firstIndex(of: "+") {
                color = try Self.color(String(rest[rest.index(after: plus)...]), opacity: nil, item)
                rest = rest[..<plus]
            }
            if rest.hasPrefix("-") { label = String(rest.dropFirst()) }
            // Letters and numbers of up to 2 characters go inside the pin; Maki icon names are not drawn.
            if label.count > 2 { label = "" }
            let size = head.hasPrefix("pin-s") ? "small" : "large"
            arguments.overlays.markers.append("\(position[1]),\(position[0]),\(color),\(label);size=\(size)")
        } else if head.hasPrefix("path") {
            // path-{width}[+{stroke}[-{opacity}]][+{fill}[-{opacity}]]
            let settings = head.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
            let width = settings[0].hasPrefix("path-") ? String(settings[0].dropFirst(5)) : "1"
            var stroke = "#555555", fill: String?
            if settings.count > 1 { stroke = try Self.colorWithOpacity(settings[1], item) }
            if settings.count > 2 { fill = try Self.colorWithOpacity(settings[2], item) }
            guard settings.count <= 3 else { throw .badParameter("overlay '\(item.messageExcerpt)': too many + settings", "overlay") }
            let polyline = body.removingPercentEncoding ?? body
            if let fill {
                arguments.overlays.polygons.append("enc=\(polyline);stroke=\(stroke);fill=\(fill);width=\(width)")
            } else {
                arguments.overlays.paths.append("enc=\(polyline);color=\(stroke);width=\(width)")
            }
        } else {
            throw .badParameter("overlay '\(item.messageExcerpt)': pin-s, pin-l, path- and geojson() are drawn", "overlay")
        }
    }

    /// `f44-0.5` (colour, then opacity) as `#ff444480`.
    private static func colorWithOpacity(_ text: String, _ item: String) throws(ServeProblem) -> String {
        let parts = text.split(separator: "-", maxSplits: 1).map(String.init)
        guard let first = parts.first else { throw .badParameter("overlay '\(item.messageExcerpt)': a colour is empty", "overlay") }
        return try color(first, opacity: parts.count > 1 ? parts[1] : nil, item)
    }

    /// A Mapbox colour (3 or 6 hex digits, no `#`) with an optional opacity 0…1, as `#rrggbb[aa]`.
    private static func color(_ hex: String, opacity: String?, _ item: String) throws(ServeProblem) -> String {
        guard [3, 6].contains(hex.count), hex.allSatisfy(\.isHexDigit), hex.allSatisfy(\.isASCII) else {
            throw .badParameter("overlay '\(item.messageExcerpt)': colour '\(hex.messageExcerpt)' is not 3 or 6 hex digits", "overlay")
        }
        let full = hex.count == 3 ? hex.map { "\($0)\($0)" }.joined() : hex
        guard let opacity else { return "#" + full }
        guard let value = Double(opacity), (0...1).contains(value) else {
            throw .badParameter("overlay '\(item.messageExcerpt)': opacity '\(opacity.messageExcerpt)' is not 0…1", "overlay")
        }
        return "#" + full + String(format: "%02x", Int((value * 255).rounded()))
    }
}
