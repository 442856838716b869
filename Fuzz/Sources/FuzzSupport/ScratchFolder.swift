import Foundation

/// A folder private to this fuzzing process (under /dev/shm when there is one, to spare the
/// disk), removed when the process exits normally.
public enum ScratchFolder {
    public static let url: URL = {
        let shm = URL(fileURLWithPath: "/dev/shm")
        let base = FileManager.default.fileExists(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory
        let folder = base.appendingPathComponent("mapcompose-fuzz-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: folder)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: ScratchFolder.url) }
        return folder
    }()

    /// Writes `data` to `name` inside the folder (creating sub-folders) and returns its URL.
    @discardableResult
    public static func write(_ data: Data, to name: String) -> URL {
        let file = url.appendingPathComponent(name)
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: file)
        return file
    }
}
