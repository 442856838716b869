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

    private static let known: Set<String> = ["z", "x", "y", "-y", "quadkey"]
    /// Placeholders only URL templates have.
    public static let urlPlaceholders: Set<String> = ["s", "r"]

    /// Placeholders used, by name.
    public let placeholders: Set<String>

    /// - Parameter extra: placeholders allowed besides the tile address (`urlPlaceholders` for URLs).
    public init(_ text: String, allowing extra: Set<String> = []) throws(Problem) {
        var names: Set<String> = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            let isVariable = open > rest.startIndex && rest[rest.index(before: open)] == "$"
            if !isVariable {
                guard Self.known.contains(name) || extra.contains(name) else { throw .unknownPlaceholder(name) }
                names.insert(name)
            }
            rest = rest[rest.index(after: close)...]
        }
        placeholders = names
        let hasXYZ = names.contains("z") && names.contains("x") && (names.contains("y") || names.contains("-y"))
        guard hasXYZ || names.contains("quadkey") else { throw .incomplete }
        self.text = text
    }

    /// The template filled in for `coord`; `tms` flips the `{y}` row as well; `{s}` becomes
    /// `subdomain` and `{r}` `retinaSuffix`.
    public func expand(_ coord: TileCoord, tms: Bool = false, subdomain: String = "", retinaSuffix: String = "") -> String {
        let row = tms ? coord.tmsY : coord.y
        return text
            .replacingOccurrences(of: "{s}", with: subdomain)
            .replacingOccurrences(of: "{r}", with: retinaSuffix)
            .replacingOccurrences(of: "{z}", with: String(coord.z))
            .replacingOccurrences(of: "{x}", with: String(coord.x))
            .replacingOccurrences(of: "{-y}", with: String(coord.tmsY))
            .replacingOccurrences(of: "{y}", with: String(row))
            .replacingOccurrences(of: "{quadkey}", with: coord.quadkey)
    }

    public var description: String { text }
}
