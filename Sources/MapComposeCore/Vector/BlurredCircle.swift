import CCairo
import Foundation

/// A MapLibre circle with `circle-blur`, drawn as MapLibre's circle shader draws it: over the
/// disc of radius `radius + strokeWidth`, opacity falls (smoothstep) from full at
/// `1 − blur` of that radius to none at its edge, and the fill turns into the stroke colour
/// (smoothstep) over the `blur` before the fill's own edge. A radial gradient of `stops` stops.
struct BlurredCircle {
    let center: SIMD2<Double>
    let radius: Double
    let strokeWidth: Double
    let color: PaintColor?
    let stroke: PaintColor?
    /// `circle-blur`: the share of the outer radius the edge fades over.
    let blur: Double

    static let stops = 32

    /// Draws the circle on `cr`; false, drawing nothing, where Cairo refuses the gradient.
    @discardableResult
    func draw(on cr: OpaquePointer) -> Bool {
        let outer = radius + max(0, strokeWidth)
        guard outer > 0, outer.isFinite else { return true }
        // MapLibre never blurs less than a device pixel of its radius (its antialiasing).
        let b = max(blur, 1 / outer)
        let inner = radius / outer
        guard let pattern = cairo_pattern_create_radial(center.x, center.y, 0, center.x, center.y, outer) else { return false }
        defer { cairo_pattern_destroy(pattern) }
        let fill = color ?? PaintColor(r: 0, g: 0, b: 0, a: 0)
        let edge = strokeWidth >= 0.01 ? stroke ?? PaintColor(r: 0, g: 0, b: 0, a: 0) : fill
        for index in 0...Self.stops {
            let l = Double(index) / Double(Self.stops)
            let opacity = Self.smoothstep((1 - l) / b)
            let toStroke = strokeWidth < 0.01 ? 0 : Self.smoothstep((l - inner + b) / b)
            // Mixed premultiplied, as the shader mixes, then given to Cairo unpremultiplied.
            let a = (fill.a + (edge.a - fill.a) * toStroke) * opacity
            func channel(_ f: Double, _ s: Double) -> Double {
                guard a > 0 else { return 0 }
                return (f * fill.a + (s * edge.a - f * fill.a) * toStroke) * opacity / a
            }
            cairo_pattern_add_color_stop_rgba(pattern, l, channel(fill.r, edge.r), channel(fill.g, edge.g),
                                              channel(fill.b, edge.b), a)
        }
        guard cairo_pattern_status(pattern) == CAIRO_STATUS_SUCCESS else { return false }
        cairo_new_path(cr)
        cairo_arc(cr, center.x, center.y, outer, 0, 2 * .pi)
        cairo_set_source(cr, pattern)
        cairo_fill(cr)
        return true
    }

    /// Smoothstep of `t` clamped to 0…1.
    static func smoothstep(_ t: Double) -> Double {
        let x = min(1, max(0, t))
        return x * x * (3 - 2 * x)
    }
}
