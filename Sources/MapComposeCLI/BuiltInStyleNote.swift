import MapComposeCore

/// The note printed when a built-in style is rendered closer than its data is detailed.
enum BuiltInStyleNote {
    /// The note for rendering `style` at `viewport`, or nil when none is due.
    static func text(for style: MapStyle, at viewport: Viewport) -> String? {
        guard case .builtIn(let builtIn) = style.origin, viewport.zoom > Double(builtIn.detailMaxZoom) else { return nil }
        if builtIn.basemapText != nil, builtIn.detailMaxZoom < 15 {
            return "note: the built-in '\(builtIn.name)' style has \(builtIn.detail) because the world basemap is not installed: "
                + BasemapLocator.howToInstall
        }
        return "note: the built-in '\(builtIn.name)' style has \(builtIn.detail); for closer maps give a style with tiles "
            + "(--style FILE: a tile folder, an MBTiles file or a tile server; the examples in mapcompose's Styles/ folder show each)"
    }
}
