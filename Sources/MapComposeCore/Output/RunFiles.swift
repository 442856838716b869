import Foundation

/// The files one run reads and writes, so that no output lands on one of its inputs or on
/// another of its outputs: `diff a.png b.png --diff a.png`, a `--report` naming the style, a
/// batch whose results file is its manifest, two batch rows with one output. Files are compared
/// by identity (device and inode, after symbolic links); outputs not written yet by their
/// resolved path. One entry is kept per output (for a batch, per row).
public struct RunFiles: Sendable {
    private var inputs: [FileIdentity: String] = [:]
    private var outputFiles: [FileIdentity: String] = [:]
    private var outputPaths: [String: String] = [:]

    public init() {}

    /// Records a file the run reads; `role` names it in messages (e.g. "the manifest jobs.jsonl").
    /// A file that does not exist is not recorded (reading it fails on its own).
    public mutating func addInput(_ path: String, role: String) {
        guard path != OutputTarget.standardOutputName, let identity = FileIdentity(path: path) else { return }
        inputs[identity] = inputs[identity] ?? role
    }

    /// Records an output; throws when it is one of the run's inputs or outputs, or when the
    /// path cannot name a file. `-` (standard output) is always accepted.
    public mutating func claimOutput(_ path: String, role: String) throws(OutputError) {
        try OutputPath.check(path)
        guard path != OutputTarget.standardOutputName else { return }
        let identity = FileIdentity(path: path)
        if let identity, let input = inputs[identity] {
            throw OutputError(path: path, reason: "it is the same file as \(input); write \(role) to another file")
        }
        let resolved = Self.resolvedPath(path)
        if let other = identity.flatMap({ outputFiles[$0] }) ?? outputPaths[resolved] {
            throw OutputError(path: path, reason: "it is also \(other); give \(role) a file of its own")
        }
        if let identity { outputFiles[identity] = role }
        outputPaths[resolved] = role
    }

    /// The absolute path a write to `path` lands on: symbolic links followed, the folder's
    /// own links resolved when it exists, `.` and `..` removed.
    static func resolvedPath(_ path: String) -> String {
        let target = (try? OutputPath.followingLinks(path)) ?? path
        let folder = OutputPath.folder(of: target)
        guard let real = realpath(folder, nil) else {
            return URL(fileURLWithPath: target).standardizedFileURL.path
        }
        defer { free(real) }
        return OutputPath.joined(String(cString: real), OutputPath.name(of: target))
    }
}
