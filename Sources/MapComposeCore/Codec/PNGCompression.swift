/// How hard the PNG writer compresses: `fast` trades size for speed, `default` stays within a
/// few percent of libpng's default-level files, `small` compresses hardest; or a deflate level
/// (zlib-ng's, which the writer uses; 0…9 as zlib's).
public enum PNGCompression: Sendable, Equatable, CustomStringConvertible {
    case fast
    case `default`
    case small
    /// A deflate level, 0 (stored, no compression) … 9.
    case level(Int)

    /// Reads `fast`, `default`, `small` or a level 0…9; nil for anything else.
    public init?(_ text: String) {
        switch text.lowercased() {
        case "fast": self = .fast
        case "default": self = .default
        case "small": self = .small
        default:
            guard let level = Int(text), (0...9).contains(level) else { return nil }
            self = .level(level)
        }
    }

    /// The deflate level the writer uses. Level 4 keeps files within a few percent of libpng's
    /// default (zlib level 6) on rendered maps; level 1 (zlib-ng's quick strategy, fixed Huffman
    /// codes) is faster and its files larger (docs/performance.md has the figures).
    public var zlibLevel: Int {
        switch self {
        case .fast: return 1
        case .default: return 4
        case .small: return 9
        case .level(let level): return min(max(level, 0), 9)
        }
    }

    /// True for `default`: each large strip of rows is run-length coded (faster than level 4)
    /// when a sample shows that compresses within 2 % as well as level 4, as flat map areas do.
    public var triesRunLength: Bool { self == .default }

    public var description: String {
        switch self {
        case .fast: return "fast"
        case .default: return "default"
        case .small: return "small"
        case .level(let level): return "\(level)"
        }
    }

    /// What the option accepts, for messages.
    public static let accepted = "fast, default, small or a level 0…9"
}
