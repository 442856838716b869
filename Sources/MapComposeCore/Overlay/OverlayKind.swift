/// The kinds of overlay written as text (`--marker …`, or `marker: …` in a style's `overlays:`).
public enum OverlayKind: String, CaseIterable, Sendable {
    case marker
    case path
    case polygon
    case circle
    case text

    /// The `key=value` settings the kind accepts after its main part.
    public var settingKeys: [String] {
        switch self {
        case .marker: return ["size", "symbol", "icon", "anchor"]
        case .path: return ["color", "width", "opacity", "geodesic", "enc"]
        case .polygon: return ["fill", "stroke", "width", "geodesic", "enc"]
        case .circle: return ["fill", "stroke", "width"]
        case .text: return ["color", "size", "halo"]
        }
    }

    /// What the main part looks like, for messages.
    public var syntax: String {
        switch self {
        case .marker: return "LAT,LON[,COLOR][,LABEL]"
        case .path: return "LAT,LON;LAT,LON;… (or enc=POLYLINE)"
        case .polygon: return "LAT,LON;LAT,LON;LAT,LON;… (or enc=POLYLINE)"
        case .circle: return "LAT,LON,RADIUS_M"
        case .text: return "LAT,LON,TEXT"
        }
    }
}
