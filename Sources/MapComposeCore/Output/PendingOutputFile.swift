import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why an output file could not be written.
public struct OutputError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let reason: String

    public var description: String { "cannot write '\(path)': \(reason)" }
}

/// An output file being written atomically: a temporary file beside the target, created up
/// front (so an unwritable path fails before any work), renamed over the target by `commit`.
/// A pending file that is never committed is removed, so a failed or interrupted run never
/// leaves a partial file at the target path.
public final class PendingOutputFile {
    public let path: String
    private let temporaryPath: String
    private var descriptor: Int32
    private var finished = false

    /// Creates the temporary file next to `path`.
    public init(path: String) throws(OutputError) {
        self.path = path
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let shownFolder = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw OutputError(path: path, reason: "it is a folder")
        }
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else {
            throw OutputError(path: path, reason: "folder '\(shownFolder)' does not exist")
        }
        guard isFolder.boolValue else {
            throw OutputError(path: path, reason: "'\(shownFolder)' is not a folder")
        }
        temporaryPath = "\(folder)/.\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw OutputError(path: path, reason: "cannot create a file in '\(shownFolder)': \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        discard()
    }

    /// Writes `data` and renames the temporary file to the target path.
    public func commit(_ data: Data) throws(OutputError) {
        guard !finished else { throw OutputError(path: path, reason: "already written") }
        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0, close(descriptor) != 0 { failure = errno }
        descriptor = -1
        if failure == 0, rename(temporaryPath, path) != 0 { failure = errno }
        guard failure == 0 else {
            discard()
            throw OutputError(path: path, reason: String(cString: strerror(failure)))
        }
        finished = true
    }

    /// Removes the temporary file without touching the target.
    public func discard() {
        guard !finished else { return }
        finished = true
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        unlink(temporaryPath)
    }
}
