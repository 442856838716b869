extension MapStyle {
    /// True when the style has MapLibre symbol layers, whose labels Pango sets (they are placed
    /// glyph by glyph, wrapped, spaced or vertical: see `MapLibreSymbolChoices`), so a render
    /// may set Pango up while it reads its tiles (see `TextWarmUp`).
    public var drawsMapLibreLabels: Bool {
        layers.contains { layer in
            (layer.source as? MapLibreGroup)?.layers.contains { $0.kind == .symbol } ?? false
        }
    }
}
