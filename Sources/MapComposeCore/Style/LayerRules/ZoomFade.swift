/// Opacity ramps over the render zoom: `in: [z0, z1]` fades a layer in from z0 to z1,
/// `out: [z2, z3]` fades it out from z2 to z3. Linear in zoom; the factor multiplies the
/// layer's opacity.
public struct ZoomFade: Sendable, Equatable {
    public var fadeIn: ClosedRange<Double>?
    public var fadeOut: ClosedRange<Double>?

    public init(fadeIn: ClosedRange<Double>? = nil, fadeOut: ClosedRange<Double>? = nil) {
        self.fadeIn = fadeIn
        self.fadeOut = fadeOut
    }

    /// clamp((z − z0)/(z1 − z0)) · clamp((z3 − z)/(z3 − z2)); a ramp of zero length is a step.
    public func factor(atZoom zoom: Double) -> Double {
        func ramp(_ value: Double, _ low: Double, _ high: Double) -> Double {
            guard high > low else { return value >= high ? 1 : 0 }
            return min(1, max(0, (value - low) / (high - low)))
        }
        var factor = 1.0
        if let fadeIn { factor *= ramp(zoom, fadeIn.lowerBound, fadeIn.upperBound) }
        if let fadeOut { factor *= 1 - ramp(zoom, fadeOut.lowerBound, fadeOut.upperBound) }
        return factor
    }
}
