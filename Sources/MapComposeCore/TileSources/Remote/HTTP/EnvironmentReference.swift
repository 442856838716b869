import Foundation

/// Text that may name environment variables as `${NAME}`, so secrets stay out of style files.
/// The text as written (with the references) is what identities, cache keys, reports, logs and
/// errors show; only `resolved(in:)`, used when a request is sent, holds the values.
public struct EnvironmentReference: Sendable, Hashable, CustomStringConvertible {
    /// The text as written in the style.
    public let text: String

    public init(_ text: String) { self.text = text }

    /// Names of the variables referenced, in order of first use.
    public var variableNames: [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else { break }
            let name = String(rest[start.upperBound..<end])
            if !names.contains(name) { names.append(name) }
            rest = rest[rest.index(after: end)...]
        }
        return names
    }

    /// The variables referenced that `environment` lacks.
    public func unsetVariables(in environment: [String: String]) -> [String] {
        variableNames.filter { environment[$0] == nil }
    }

    /// The text with each `${NAME}` replaced by its value (empty when unset), without the line
    /// breaks a value read from a file ends with.
    public func resolved(in environment: [String: String]) -> String {
        var result = text
        for name in variableNames {
            result = result.replacingOccurrences(of: "${\(name)}", with: Self.value(of: name, in: environment) ?? "")
        }
        return result
    }

    /// The value of variable `name` as references resolve it: trailing line breaks dropped.
    public static func value(of name: String, in environment: [String: String]) -> String? {
        guard var value = environment[name] else { return nil }
        while let last = value.last, last == "\n" || last == "\r" { value.removeLast() }
        return value
    }

    /// True for a name a variable may have: letters, digits and `_`, not starting with a digit.
    public static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "_" || CharacterSet.alphanumerics.contains($0)) }
    }

    /// The text as written: references shown, never their values.
    public var description: String { text }
}
