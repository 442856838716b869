/// How scaled tiles are resampled.
public enum Resampling: String, CaseIterable, Sendable {
    /// The nearest pixel: hard edges, for categorical data.
    case nearest
    /// Bilinear, box-filtered below half size (no aliasing when scaling down); the default.
    case bilinear
    /// Cairo's best filter.
    case best
}
