import Foundation

/// A failure the CLI reports as `error: …` lines with an exit code (1 render failed, 2 bad input).
public struct CLIFailure: Error {
    public let messages: [String]
    public let exitCode: Int32

    public init(_ message: String, exitCode: Int32 = 2) {
        messages = [message]
        self.exitCode = exitCode
    }

    public init(messages: [String], exitCode: Int32) {
        self.messages = messages
        self.exitCode = exitCode
    }
}

/// Writes a line to standard error, its control characters escaped (see `TerminalText`);
/// `keepingNewlines` for a message of several lines.
public func printError(_ line: String, keepingNewlines: Bool = false) {
    var text = TerminalText.escaped(line, keepingNewlines: keepingNewlines) + "\n"
    text.withUTF8 { FileHandle.standardError.write(Data(buffer: $0)) }
}

/// Writes a message line to standard output, its control characters escaped.
public func printLine(_ line: String) {
    print(TerminalText.escaped(line))
}
