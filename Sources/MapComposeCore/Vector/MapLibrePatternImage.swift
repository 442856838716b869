import MapLibreStyleSpec

/// The sprite image a layer's `fill-pattern`, `line-pattern` or `background-pattern` names:
/// looked up per feature when the layer is drawn, and checked against the sprite when the style
/// loads.
struct MapLibrePatternImage {
    /// The pattern property of each layer type that has one.
    static let properties = ["fill": "fill-pattern", "line": "line-pattern", "background": "background-pattern"]

    let property: String
    let icons: [String: SpriteIcon]

    /// nil when `layer` has no pattern (it is drawn in its colour).
    init?(_ layer: MapLibreLayer, icons: [String: SpriteIcon]) {
        guard let property = Self.properties[layer.kind.rawValue], layer.properties[property] != nil else { return nil }
        self.property = property
        self.icons = icons
    }

    /// The name of the image for the feature in `ctx`; nil where the sprite lacks it (as in
    /// MapLibre, such a feature is not drawn, not even in the layer's colour).
    func image(_ layer: MapLibreLayer, _ ctx: EvaluationContext) -> String? {
        guard let name = layer.imageName(property, ctx), icons[name] != nil else { return nil }
        return name
    }

    /// What the feature in `ctx` is painted with: with a pattern, its image and black with
    /// `opacity` as its alpha; else the colour property `color` with `opacity`. nil where the
    /// feature is not drawn (no colour, or an image the sprite lacks).
    static func paint(_ layer: MapLibreLayer, _ ctx: EvaluationContext, pattern: MapLibrePatternImage?, color: String,
                      opacity: Double) -> (color: PaintColor, image: String?)? {
        guard let pattern else { return layer.color(color, ctx, opacity: opacity).map { ($0, nil) } }
        guard let name = pattern.image(layer, ctx) else { return nil }
        return (PaintColor(r: 0, g: 0, b: 0, a: max(0, min(1, opacity))), name)
    }

    /// A warning for each layer whose pattern, the same for every feature and zoom, names an
    /// image the sprite lacks (data-driven patterns are only known when drawn).
    static func missing(in layers: [MapLibreLayer], sprite: SpriteSheets) -> [String] {
        layers.compactMap { layer in
            guard let property = properties[layer.kind.rawValue], let expression = layer.properties[property],
                  expression.kind == .constant, let name = layer.imageName(property, EvaluationContext(zoom: 0)) else { return nil }
            let inStandard = sprite.standard[name] != nil, inDouble = sprite.double.map { $0[name] != nil } ?? inStandard
            let what = "layer '\(layer.id)': \(property) image '\(name)' is not in the sprite"
            switch (inStandard, inDouble) {
            case (true, true): return nil
            case (false, false): return "\(what), so the layer is not drawn"
            case (false, true): return "\(what)'s 1x sheet, so the layer is not drawn at scales under 1.5"
            case (true, false): return "\(what)'s @2x sheet, so the layer is not drawn at scales of 1.5 and above"
            }
        }
    }
}
