import Foundation

/// A tile path or URL template such as `{z}/{x}/{y}.png`.
///
/// Placeholders: `{z}`, `{x}`, `{y}` (XYZ row), `{-y}` (TMS row), `{quadkey}`.
public struct TilePathTemplate: Sendable, Equatable, CustomStringConvertible {
    public let text: String

    /// Why a template cannot address tiles.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        case unknownPlaceholder(String)
        case incomplete

        public var description: String {
            switch self {
            case .unknownPlaceholder(let name):
                return "unknown placeholder {\(name)} (use {z}, {x}, {y}, {-y} or {quadkey})"
            case .incomplete:
                return "template must contain {z}, {x} and {y} or {-y}, or {quadkey}"
            }
        }
    }

    private static let known: Set<String> = ["z", "x", "y", "-y", "quadkey"]

    public init(_ text: String) throws(Problem) {
        var names: Set<String> = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            guard Self.known.contains(name) else { throw .unknownPlaceholder(name) }
            names.insert(name)
            rest = rest[rest.index(after: close)...]
        }
        let hasXYZ = names.contains("z") && names.contains("x") && (names.contains("y") || names.contains("-y"))
        guard hasXYZ || names.contains("quadkey") else { throw .incomplete }
        self.text = text
    }

    /// The template filled in for `coord`; `tms` flips the `{y}` row as well.
    public func expand(_ coord: TileCoord, tms: Bool = false) -> String {
        let row = tms ? coord.tmsY : coord.y
        return text
            .replacingOccurrences(of: "{z}", with: String(coord.z))
            .replacingOccurrences(of: "{x}", with: String(coord.x))
            .replacingOccurrences(of: "{-y}", with: String(coord.tmsY))
            .replacingOccurrences(of: "{y}", with: String(row))
            .replacingOccurrences(of: "{quadkey}", with: coord.quadkey)
    }

    public var description: String { text }
}
