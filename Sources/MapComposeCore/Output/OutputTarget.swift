import Foundation

/// Where an output goes: a file written atomically, or standard output (named `-`).
public enum OutputTarget {
    case file(PendingOutputFile)
    case standardOutput

    /// The path that names standard output.
    public static let standardOutputName = "-"

    /// `-` is standard output; any other path becomes a pending file (see `PendingOutputFile`).
    public init(path: String) throws(OutputError) {
        if path == Self.standardOutputName {
            self = .standardOutput
        } else {
            self = .file(try PendingOutputFile(path: path))
        }
    }

    /// Gives up: removes a pending file's temporary; nothing for standard output.
    public func discard() {
        if case .file(let file) = self { file.discard() }
    }

    /// Writes `data`: renames the file into place, or writes all of it to standard output.
    public func commit(_ data: Data) throws(OutputError) {
        switch self {
        case .file(let file): try file.commit(data)
        case .standardOutput: try Self.writeToStandardOutput(data)
        }
    }

    /// Writes a part of the output: to the pending file (which `commit` then puts in place), or
    /// straight to standard output.
    public func append(_ data: Data) throws(OutputError) {
        switch self {
        case .file(let file): try file.append(data)
        case .standardOutput: try Self.writeToStandardOutput(data)
        }
    }

    private static func writeToStandardOutput(_ data: Data) throws(OutputError) {
        let failure = DescriptorWriter.writeAll(data, to: STDOUT_FILENO)
        guard failure == 0 else {
            throw OutputError(path: Self.standardOutputName, reason: DescriptorWriter.reason(failure))
        }
    }
}
