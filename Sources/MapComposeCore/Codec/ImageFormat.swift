/// Output image formats.
public enum ImageFormat: String, CaseIterable, Sendable, Codable {
    case png
    case jpeg
    case webp
    case pdf
    case svg

    /// The format an output path's extension names, if any.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webp
        case "pdf": self = .pdf
        case "svg": self = .svg
        default: return nil
        }
    }

    /// True for page formats whose overlays and attribution are drawn as vectors.
    public var isVector: Bool { self == .pdf || self == .svg }

    /// The usual file extension for the format.
    public var fileExtension: String {
        switch self {
        case .png: return "png"
        case .jpeg: return "jpg"
        case .webp: return "webp"
        case .pdf: return "pdf"
        case .svg: return "svg"
        }
    }
}
