import Foundation

/// A failure the CLI reports as `error: …` lines with an exit code (1 render failed, 2 bad input).
struct CLIFailure: Error {
    let messages: [String]
    let exitCode: Int32

    init(_ message: String, exitCode: Int32 = 2) {
        messages = [message]
        self.exitCode = exitCode
    }

    init(messages: [String], exitCode: Int32) {
        self.messages = messages
        self.exitCode = exitCode
    }
}

/// Writes a line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
