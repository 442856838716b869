/// What a marker looks like.
public enum MarkerSymbol: Sendable {
    /// The built-in pin, drawn as vectors, its tip on the point.
    case pin(MarkerSize)
    /// A filled circle centred on the point (simplestyle `marker-symbol: circle`).
    case dot(MarkerSize)
    /// An image from a file, its anchor on the point.
    case icon(MarkerIcon)

    /// How far the symbol reaches from its point, in CSS pixels (for fitting a view).
    var reach: Double {
        switch self {
        case .pin(let size): return size.pin.height
        case .dot(let size): return size.dot / 2
        case .icon(let icon): return max(Double(icon.image.width), Double(icon.image.height))
        }
    }
}

extension MarkerSymbol {
    var isPin: Bool {
        if case .pin = self { return true }
        return false
    }
}
