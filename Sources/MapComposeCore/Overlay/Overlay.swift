/// A shape drawn above all layers of a map, in geographic coordinates: what `--marker`,
/// `--path`, `--polygon`, `--circle`, `--text`, `--overlay` and a style's `overlays:` give.
public enum Overlay: Sendable {
    case marker(MarkerOverlay)
    case path(PathOverlay)
    case polygon(PolygonOverlay)
    case circle(CircleOverlay)
    case text(TextOverlay)
}
