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

/// Writes files atomically: a temporary file beside the target, then a rename, so a failed
/// or interrupted run never leaves a partial file at the target path.
public enum AtomicFileWriter {
    /// Checks up front that `path` can be written: its folder exists and is writable, and it is
    /// not itself a folder.
    public static func checkWritable(_ path: String) throws(OutputError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw OutputError(path: path, reason: "it is a folder")
        }
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else {
            throw OutputError(path: path, reason: "folder '\(displayFolder(of: path))' does not exist")
        }
        guard isFolder.boolValue else {
            throw OutputError(path: path, reason: "'\(displayFolder(of: path))' is not a folder")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw OutputError(path: path, reason: "folder '\(displayFolder(of: path))' is not writable")
        }
    }

    public static func write(_ data: Data, to path: String) throws(OutputError) {
        try checkWritable(path)
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        do {
            try data.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw OutputError(path: path, reason: (error as NSError).localizedDescription)
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw OutputError(path: path, reason: reason)
        }
    }

    private static func displayFolder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }
}
