import Foundation

/// A tile path or URL template such as `{z}/{x}/{y}.png`.
///
/// Placeholders: `{z}`, `{x}`, `{y}` (XYZ row), `{-y}` (TMS row), `{quadkey}`; URL templates also
/// `{s}` (a subdomain) and `{r}` (`@2x` for high-resolution tiles). `${NAME}` is an environment
/// variable reference, left for the HTTP layer to fill in when it sends the request.
public struct TilePathTemplate: Sendable, Equatable, CustomStringConvertible {
    public let text: String

    /// Why a template cannot address tiles.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        case unknownPlaceholder(String)
        case incomplete

        public var description: String {
            switch self {
            case .unknownPlaceholder(let name):
                return "unknown placeholder {\(name)} (use {z}, {x}, {y}, {-y} or {quadkey}; in URLs also {s} and {r})"
            case .incomplete:
                return "template must contain {z}, {x} and {y} or {-y}, or {quadkey}"
            }
        }
    }

    /// A run of literal text or one placeholder, in template order.
    private enum Segment: Sendable, Equatable {
        case text(String)
        case placeholder(String)
    }

    private static let known: Set<String> = ["z", "x", "y", "-y", "quadkey"]
    /// Placeholders only URL templates have.
    public static let urlPlaceholders: Set<String> = ["s", "r"]

    /// Placeholders used, by name.
    public let placeholders: Set<String>
    /// The template split once, so expanding a tile's path is one pass with no searching.
    private let segments: [Segment]

    /// - Parameter extra: placeholders allowed besides the tile address (`urlPlaceholders` for URLs).
    public init(_ text: String, allowing extra: Set<String> = []) throws(Problem) {
        var names: Set<String> = []
        var segments: [Segment] = []
        var literalStart = text.startIndex
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            let isVariable = open > text.startIndex && text[text.index(before: open)] == "$"
            if !isVariable {
                guard Self.known.contains(name) || extra.contains(name) else { throw .unknownPlaceholder(name) }
                names.insert(name)
                if literalStart < open { segments.append(.text(String(text[literalStart..<open]))) }
                segments.append(.placeholder(name))
                literalStart = text.index(after: close)
            }
            rest = rest[rest.index(after: close)...]
        }
        if literalStart < text.endIndex { segments.append(.text(String(text[literalStart...]))) }
        placeholders = names
        let hasXYZ = names.contains("z") && names.contains("x") && (names.contains("y") || names.contains("-y"))
        guard hasXYZ || names.contains("quadkey") else { throw .incomplete }
        self.text = text
        self.segments = segments
    }

    /// The template filled in for `coord`; `tms` flips the `{y}` row as well; `{s}` becomes
    /// `subdomain` and `{r}` `retinaSuffix`.
    public func expand(_ coord: TileCoord, tms: Bool = false, subdomain: String = "", retinaSuffix: String = "") -> String {
        var expanded = ""
        expanded.reserveCapacity(text.utf8.count + 16)
        for segment in segments {
            switch segment {
            case .text(let literal): expanded += literal
            case .placeholder("z"): expanded += String(coord.z)
            case .placeholder("x"): expanded += String(coord.x)
            case .placeholder("y"): expanded += String(tms ? coord.tmsY : coord.y)
            case .placeholder("-y"): expanded += String(coord.tmsY)
            case .placeholder("quadkey"): expanded += coord.quadkey
            case .placeholder("s"): expanded += subdomain
            case .placeholder("r"): expanded += retinaSuffix
            case .placeholder(let name): expanded += "{\(name)}"
            }
        }
        return expanded
    }

    public var description: String { text }
}
