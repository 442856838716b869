/// Why a vector tile, or one feature's geometry, cannot be read.
public enum VectorTileError: Error, Equatable, CustomStringConvertible {
    /// The protocol buffer itself is broken.
    case malformed(String)
    /// A feature's geometry commands are wrong (the layer and feature are named by the caller).
    case geometry(String)
    case tooLarge(bytes: Int, limit: Int)

    public var description: String {
        switch self {
        case .malformed(let detail): return "not a valid vector tile: \(detail)"
        case .geometry(let detail): return "bad geometry: \(detail)"
        case .tooLarge(let bytes, let limit): return "a vector tile of \(bytes) bytes is over the limit of \(limit)"
        }
    }
}
