import Foundation

/// One thing wrong with a style file, located by file, line and key path.
public struct StyleProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let keyPath: String
    public let message: String

    public init(file: String, line: Int?, keyPath: String, message: String) {
        self.file = file
        self.line = line
        self.keyPath = keyPath
        self.message = message
    }

    /// `file:line: key.path: message` (just the message when there is no file, e.g. an empty style name)
    public var description: String {
        guard !file.isEmpty else { return keyPath.isEmpty ? message : "\(keyPath): \(message)" }
        let location = line.map { "\(file):\($0)" } ?? file
        return keyPath.isEmpty ? "\(location): \(message)" : "\(location): \(keyPath): \(message)"
    }
}

/// The problems found while loading one style, reported together: the first `listedLimit` in
/// file order, and how many more there are.
public struct StyleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The most problems listed; a style with more is usually not a style at all.
    public static let listedLimit = 50

    /// The problems listed, in file order.
    public let problems: [StyleProblem]
    /// How many more problems were found and are not listed.
    public let unlisted: Int

    public init(problems: [StyleProblem]) {
        self.problems = Array(problems.prefix(Self.listedLimit))
        unlisted = max(0, problems.count - Self.listedLimit)
    }

    /// One line per problem listed, then one saying how many are not.
    public var lines: [String] {
        let more = unlisted == 1 ? "and 1 more problem" : "and \(unlisted) more problems"
        return problems.map(\.description) + (unlisted > 0 ? ["\(more) (fix the first \(Self.listedLimit) and validate again)"] : [])
    }

    public var description: String {
        lines.joined(separator: "\n")
    }
}
