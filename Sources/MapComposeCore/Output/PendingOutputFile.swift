import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An output file being written atomically: a temporary file beside the target, created up
/// front (so an unwritable path fails before any work), renamed over the target by `commit`.
/// A pending file that is never committed is removed (by `discard`, on release, or by
/// `PendingFileRegistry` on a signal or exit), so a failed or interrupted run never leaves a
/// partial or temporary file.
///
/// A path that is a symbolic link is followed to its final target: the temporary file is
/// made beside that target and renamed onto it, so the link stays a link. A target that
/// exists and is not a regular file (a folder, device, FIFO or socket) is refused.
public final class PendingOutputFile {
    /// The path as given.
    public let path: String
    /// Where the file lands: `path` with its symbolic links followed.
    public let targetPath: String
    private let temporaryPath: String
    private var descriptor: Int32
    private var registration: PendingFileRegistry.Token
    private var finished = false

    /// Creates the temporary file beside `path`'s final target.
    public convenience init(path: String) throws(OutputError) {
        try self.init(path: path) { temporaryPath in
            open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
    }

    /// `openTemporary` creates the temporary file at the path it is given and returns its
    /// descriptor, or -1 with `errno` set (tests pass one that opens another file).
    init(path: String, openTemporary: (String) -> Int32) throws(OutputError) {
        self.path = path
        try OutputPath.check(path)
        let target = try OutputPath.followingLinks(path)
        targetPath = target
        let existingMode = try Self.checkTarget(target, path: path)
        let folder = OutputPath.folder(of: target)
        temporaryPath = OutputPath.joined(
            folder, ".\(OutputPath.name(of: target)).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        PendingFileRegistry.beginCreating()
        registration = PendingFileRegistry.register(temporaryPath)
        descriptor = openTemporary(temporaryPath)
        PendingFileRegistry.endCreating()
        guard descriptor >= 0 else {
            let reason = DescriptorWriter.reason(errno)
            PendingFileRegistry.unregister(registration)
            throw OutputError(path: path, reason: "cannot create a file in '\(folder)': \(reason)")
        }
        if let existingMode { fchmod(descriptor, existingMode) }
    }

    deinit {
        discard()
    }

    /// Writes `data` to the temporary file, for a file written a part at a time; `commit`
    /// writes the rest and puts it in place.
    public func append(_ data: Data) throws(OutputError) {
        guard !finished else { throw OutputError(path: path, reason: "already written") }
        let failure = DescriptorWriter.writeAll(data, to: descriptor)
        guard failure == 0 else {
            discard()
            throw OutputError(path: path, reason: DescriptorWriter.reason(failure))
        }
    }

    /// Writes `data` and renames the temporary file onto the target.
    public func commit(_ data: Data) throws(OutputError) {
        guard !finished else { throw OutputError(path: path, reason: "already written") }
        var failure = DescriptorWriter.writeAll(data, to: descriptor)
        if close(descriptor) != 0, failure == 0 { failure = errno }
        descriptor = -1
        if failure == 0 {
            PendingFileRegistry.commitHold?.begin()
            if rename(temporaryPath, targetPath) != 0 { failure = errno }
        }
        guard failure == 0 else {
            discard()
            throw OutputError(path: path, reason: DescriptorWriter.reason(failure))
        }
        finished = true
        PendingFileRegistry.unregister(registration)
    }

    /// Removes the temporary file without touching the target.
    public func discard() {
        guard !finished else { return }
        finished = true
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        unlink(temporaryPath)
        PendingFileRegistry.unregister(registration)
    }

    /// Refuses a target that exists and is not a regular file, and checks its folder;
    /// returns the permission bits of an existing file, which the new file keeps.
    private static func checkTarget(_ target: String, path: String) throws(OutputError) -> mode_t? {
        let via = target == path ? "" : " ('\(path)' links to '\(target)')"
        var info = stat()
        if stat(target, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: return info.st_mode & 0o7777
            case S_IFDIR: throw OutputError(path: path, reason: "it is a folder\(via)")
            default:
                throw OutputError(path: path, reason: "it is \(kind(info.st_mode)), not a regular file\(via); "
                                  + "name a file, or give - to write to standard output")
            }
        }
        let folder = OutputPath.folder(of: target)
        guard stat(folder, &info) == 0 else {
            throw OutputError(path: path, reason: "folder '\(folder)' does not exist\(via)")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw OutputError(path: path, reason: "'\(folder)' is not a folder\(via)")
        }
        return nil
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        default: return "a special file"
        }
    }
}
