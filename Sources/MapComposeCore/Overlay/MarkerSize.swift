/// The simplestyle `marker-size`: small, medium or large.
public enum MarkerSize: String, CaseIterable, Sendable {
    case small
    case medium
    case large

    /// Pin width and height in CSS pixels (the tip is the anchor).
    var pin: (width: Double, height: Double) {
        switch self {
        case .small: return (16, 24)
        case .medium: return (22, 32)
        case .large: return (30, 44)
        }
    }

    /// Diameter of a dot marker in CSS pixels.
    var dot: Double {
        switch self {
        case .small: return 8
        case .medium: return 12
        case .large: return 18
        }
    }
}
