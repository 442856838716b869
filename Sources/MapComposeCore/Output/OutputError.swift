/// Why an output file could not be written.
public struct OutputError: Error, CustomStringConvertible, Equatable {
    /// The path as given (`-` for standard output).
    public let path: String
    public let reason: String

    public var description: String {
        path == OutputTarget.standardOutputName
            ? "cannot write to standard output: \(reason)"
            : "cannot write '\(path)': \(reason)"
    }
}
