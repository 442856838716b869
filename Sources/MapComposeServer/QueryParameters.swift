import Foundation
import MapComposeCore

/// A URL's query as `name=value` pairs in their order, percent-decoded (`+` is a space), so
/// repeated names stay apart (`marker=…&marker=…` are two markers).
struct QueryParameters: Sendable {
    private(set) var pairs: [(name: String, value: String)] = []

    /// Parses a raw query (the part after `?`); a pair whose escapes do not decode to UTF-8 is
    /// refused naming it.
    init(_ query: String?) throws(ServeProblem) {
        guard let query, !query.isEmpty else { return }
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let rawName: Substring, rawValue: Substring
            if let equals = part.firstIndex(of: "=") {
                rawName = part[..<equals]
                rawValue = part[part.index(after: equals)...]
            } else {
                rawName = part
                rawValue = ""
            }
            guard let name = Self.decode(rawName), let value = Self.decode(rawValue) else {
                throw .badParameter("'\(String(rawName).messageExcerpt)': the query holds a % escape that is not UTF-8",
                                    String(rawName).messageExcerpt)
            }
            pairs.append((name, value))
        }
    }

    /// Values of `name`, in order.
    func all(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    /// The one value of `name`; given twice is refused.
    func single(_ name: String) throws(ServeProblem) -> String? {
        let values = all(name)
        guard values.count <= 1 else { throw .badParameter("\(name) is given \(values.count) times (give it once)", name) }
        return values.first
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
