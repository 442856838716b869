/// Why an image could not be encoded.
public enum ImageEncodeError: Error, CustomStringConvertible {
    case cairo(format: ImageFormat, CairoError)
    case codec(format: ImageFormat, String)

    public var description: String {
        switch self {
        case .cairo(let format, let error): return "\(format.rawValue.uppercased()) encoding failed: \(error)"
        case .codec(let format, let message): return "\(format.rawValue.uppercased()) encoding failed: \(message)"
        }
    }
}
