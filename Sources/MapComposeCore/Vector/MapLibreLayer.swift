import MapLibreStyleSpec

/// One drawn layer of a MapLibre style, its filter and properties compiled once.
final class MapLibreLayer: @unchecked Sendable {
    enum Kind: String {
        case background, fill, line, circle, raster, symbol
    }

    let id: String
    let kind: Kind
    /// The source id (nil for `background`).
    let source: String?
    let sourceLayer: String?
    /// Shown when `minzoom <= GL zoom < maxzoom`.
    let minzoom: Double
    let maxzoom: Double
    let filter: StyleExpression?
    let properties: [String: StyleExpression]
    /// Whether the source is GeoJSON with `lineMetrics`, so its lines carry `line-progress`.
    let lineMetrics: Bool

    init(id: String, kind: Kind, source: String?, sourceLayer: String?, minzoom: Double, maxzoom: Double,
         filter: StyleExpression?, properties: [String: StyleExpression], lineMetrics: Bool = false) {
        self.id = id
        self.kind = kind
        self.source = source
        self.sourceLayer = sourceLayer
        self.minzoom = minzoom
        self.maxzoom = maxzoom
        self.filter = filter
        self.properties = properties
        self.lineMetrics = lineMetrics
    }

    /// Views below GL zoom 0 (mapcompose zoom under 1) count as GL zoom 0 here, the lowest a
    /// MapLibre style is written for, so layers without a `minzoom` still show.
    func isVisible(glZoom: Double) -> Bool {
        let zoom = max(0, glZoom)
        return zoom >= minzoom && zoom < maxzoom
    }

    /// The property's value for the feature (or zoom) in `ctx`: as the style says, else the
    /// specification's default.
    func value(_ name: String, _ ctx: EvaluationContext) -> Value {
        if let expression = properties[name] { return expression.evaluate(ctx, fallback: .null) }
        guard let entry = MapLibreProperties.drawn[kind.rawValue]?[name], let value = entry.spec.defaultValue else {
            return .null
        }
        if entry.spec.type == "color", case .string(let text) = value { return Color.parse(text).map(Value.color) ?? .null }
        return Value(value)
    }

    /// A number property, 0 where it is not a number, within ±1,000,000 (so no width, radius
    /// or offset reaches past what Cairo and the placement grid can hold).
    func number(_ name: String, _ ctx: EvaluationContext) -> Double {
        guard let number = value(name, ctx).number, !number.isNaN else { return 0 }
        return max(-1e6, min(1e6, number))
    }

    /// A colour property, unpremultiplied, with `opacity` folded into its alpha; nil when unset.
    func color(_ name: String, _ ctx: EvaluationContext, opacity: Double = 1) -> PaintColor? {
        guard case .color(let c) = value(name, ctx) else { return nil }
        let u = c.unpremultiplied
        return PaintColor(r: u.r, g: u.g, b: u.b, a: max(0, min(1, c.a * opacity)))
    }

    func string(_ name: String, _ ctx: EvaluationContext) -> String? {
        value(name, ctx).string
    }

    /// The sprite image a `resolvedImage` property names; nil when it names none.
    func imageName(_ name: String, _ ctx: EvaluationContext) -> String? {
        switch value(name, ctx) {
        case .image(let image): return image.name
        case .string(let string): return string
        default: return nil
        }
    }

    /// A two-number array property (`*-translate`).
    func pair(_ name: String, _ ctx: EvaluationContext) -> (Double, Double) {
        switch value(name, ctx) {
        case .array(let items) where items.count == 2: return (bounded(items[0].number), bounded(items[1].number))
        case .numberArray(let items) where items.count == 2: return (bounded(items[0]), bounded(items[1]))
        default: return (0, 0)
        }
    }

    /// The strings of an array property; nil when the style does not set it.
    func strings(_ name: String, _ ctx: EvaluationContext) -> [String]? {
        guard properties[name] != nil else { return nil }
        switch value(name, ctx) {
        case .array(let items): return items.compactMap { if case .string(let s) = $0 { s } else { nil } }
        default: return nil
        }
    }

    func numbers(_ name: String, _ ctx: EvaluationContext) -> [Double] {
        switch value(name, ctx) {
        case .array(let items): return items.compactMap(\.number).map(bounded)
        case .numberArray(let items): return items.map(bounded)
        default: return []
        }
    }

    private func bounded(_ value: Double?) -> Double {
        guard let value, !value.isNaN else { return 0 }
        return max(-1e6, min(1e6, value))
    }
}

/// A colour to paint with, unpremultiplied, 0…1.
struct PaintColor: Hashable {
    var r: Double, g: Double, b: Double, a: Double
}
