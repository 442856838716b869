/// The image format of an ArcGIS cache's tiles (`TileImageInfo/CacheTileFormat` in conf.xml).
public enum ArcGISTileFormat: String, Sendable, CaseIterable {
    case png = "PNG"
    case png8 = "PNG8"
    case png24 = "PNG24"
    case png32 = "PNG32"
    case jpeg = "JPEG"
    /// JPEG where a tile is opaque, PNG where it has transparency.
    case mixed = "MIXED"

    /// File extensions an exploded cache's tiles may have, the likelier first.
    public var fileExtensions: [String] {
        switch self {
        case .png, .png8, .png24, .png32: return ["png"]
        case .jpeg: return ["jpg"]
        case .mixed: return ["jpg", "png"]
        }
    }
}
