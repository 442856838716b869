import Foundation

/// The view that shows every overlay when no center/zoom or bbox is given, as the static-map
/// peers do: the overlays' bounds fitted with the padding (plus room for marker symbols),
/// at most zoom 17; a single point is shown at zoom 15.
public enum OverlayFit {
    public static let maxZoom = 17.0
    public static let singlePointZoom = 15.0

    public static func viewport(for overlays: [Overlay], width: Int, height: Int, scale: Double, padding: Int,
                                fractionalZoom: Bool) throws(ViewportError) -> Viewport {
        guard padding >= 0 else { throw .negativePadding(padding) }
        guard var bounds = OverlayGeometry.bounds(of: overlays) else { throw .nothingToFit }
        // The bounds are clamped to the limit, so they cross over only when all lies beyond it.
        if bounds.south > WebMercator.maxLatitude { throw .beyondMercatorLimit(latitude: bounds.south) }
        if bounds.north < -WebMercator.maxLatitude { throw .beyondMercatorLimit(latitude: bounds.north) }
        let reach = overlays.reduce(0.0) { reach, overlay in
            if case .marker(let marker) = overlay { return max(reach, fitReach(of: marker)) }
            return reach
        }
        // Room for the markers' symbols and labels, as far as the size allows beyond the asked padding.
        let room = max(0, (min(width, height) - 2) / 2 - padding)
        let totalPadding = padding + min(Int(reach.rounded(.up)), room)
        if bounds.west == bounds.east, bounds.south == bounds.north {
            return try Viewport(center: LonLat(lon: bounds.west, lat: bounds.south), zoom: singlePointZoom,
                                width: width, height: height, scale: scale)
        }
        if bounds.west == bounds.east { bounds.east = bounds.west + 1e-6 }
        if bounds.south == bounds.north { bounds.north = bounds.south + 1e-6 }
        return try Viewport.fitting(bounds, width: width, height: height, scale: scale, padding: totalPadding,
                                    maxZoom: maxZoom, fractionalZoom: fractionalZoom)
    }

    /// How far a marker reaches from its point in CSS pixels: its symbol, and a label of more
    /// than three characters drawn beside it (12-px bold text, about 0.65 em a character).
    static func fitReach(of marker: MarkerOverlay) -> Double {
        guard let label = marker.label, label.count > 3 else { return marker.symbol.reach }
        return max(marker.symbol.reach, marker.symbol.reach / 2 + 3 + Double(label.count) * 12 * 0.65)
    }
}
