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

/// Every problem found while loading one style, reported together.
public struct StyleError: Error, Equatable, Sendable, CustomStringConvertible {
    public let problems: [StyleProblem]

    public init(problems: [StyleProblem]) {
        self.problems = problems
    }

    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}
