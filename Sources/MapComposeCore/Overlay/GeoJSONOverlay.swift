import Foundation

/// Overlays from a GeoJSON file styled by simplestyle-spec properties: points become markers
/// (`marker-color`, `marker-size`, `marker-symbol: circle` for a dot, `title` as label), lines
/// paths (`stroke`, `stroke-width`, `stroke-opacity`), polygons areas (`fill`, `fill-opacity`
/// and the stroke keys). A feature's `geodesic: true` draws its lines along geodesics.
/// Problems name the feature (`features[3]`) and the property or position at fault
/// (positions are checked by `GeoJSONReader`).
public enum GeoJSONOverlay {
    public static func overlays(from data: Data) throws(OverlayError) -> [Overlay] {
        let features: [GeoJSONGeometry]
        do {
            features = try GeoJSONReader.read(data)
        } catch {
            throw OverlayError(error.reason)
        }
        var overlays: [Overlay] = []
        for feature in features {
            do {
                overlays += try self.overlays(of: feature)
            } catch {
                throw OverlayError("\(feature.context): \(error.reason)")
            }
        }
        return overlays
    }

    private static func overlays(of feature: GeoJSONGeometry) throws(OverlayError) -> [Overlay] {
        let style = Properties(feature.properties)
        var result: [Overlay] = []
        if !feature.points.isEmpty {
            let color = try style.color("marker-color") ?? RGBA(r: 126, g: 126, b: 126)
            let size = try style.text("marker-size").map { text throws(OverlayError) in try OverlaySyntax.markerSize(text, "marker-size") } ?? .medium
            let symbol: MarkerSymbol = style.text("marker-symbol")?.lowercased() == "circle" ? .dot(size) : .pin(size)
            for point in feature.points {
                result.append(.marker(MarkerOverlay(position: point, color: color,
                                                    label: style.text("title"), symbol: symbol)))
            }
        }
        let stroke = StrokeStyle(color: (try style.color("stroke") ?? RGBA(r: 85, g: 85, b: 85))
                                    .multiplyingAlpha(by: try style.number("stroke-opacity", in: 0...1) ?? 1),
                                 width: try style.number("stroke-width", in: StrokeStyle.widthRange) ?? 2)
        let geodesic = style.flag("geodesic")
        for (index, line) in feature.lines.enumerated() {
            guard line.count >= 2 else { throw OverlayError("line \(index + 1) needs at least 2 positions, got \(line.count)") }
            result.append(.path(PathOverlay(points: line, stroke: stroke, geodesic: geodesic)))
        }
        if !feature.polygons.isEmpty {
            let fill = (try style.color("fill") ?? RGBA(r: 85, g: 85, b: 85))
                .multiplyingAlpha(by: try style.number("fill-opacity", in: 0...1) ?? 0.6)
            for (index, rings) in feature.polygons.enumerated() {
                var checkedRings: [[LonLat]] = []
                for ring in rings {
                    var points = ring
                    if points.count > 1, points.first == points.last { points.removeLast() }
                    guard points.count >= 3 else {
                        throw OverlayError("polygon \(index + 1) has a ring of fewer than 3 distinct positions")
                    }
                    checkedRings.append(points)
                }
                guard !checkedRings.isEmpty else { throw OverlayError("polygon \(index + 1) has no rings") }
                result.append(.polygon(PolygonOverlay(rings: checkedRings, fill: fill,
                                                      stroke: stroke.width > 0 ? stroke : nil, geodesic: geodesic)))
            }
        }
        return result
    }

    /// Typed access to a feature's simplestyle properties.
    private struct Properties {
        let values: [String: Any]

        init(_ values: [String: Any]) { self.values = values }

        func text(_ key: String) -> String? {
            guard let value = values[key], !(value is NSNull) else { return nil }
            let text = "\(value)"
            return text.isEmpty ? nil : text
        }

        func color(_ key: String) throws(OverlayError) -> RGBA? {
            try text(key).map { value throws(OverlayError) in try OverlaySyntax.color(value, key) }
        }

        func number(_ key: String, in range: ClosedRange<Double>) throws(OverlayError) -> Double? {
            try text(key).map { value throws(OverlayError) in try OverlaySyntax.number(value, key, in: range) }
        }

        func flag(_ key: String) -> Bool { (values[key] as? Bool) ?? false }
    }
}
