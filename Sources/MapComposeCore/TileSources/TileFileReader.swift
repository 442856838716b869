import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads whole tile files with plain POSIX calls on a dispatch queue, so blocking disk reads
/// never hold a thread of Swift's cooperative pool. One open-then-read, no separate existence
/// check, so a file that vanishes between the two cannot be misreported.
enum TileFileReader {
    /// What reading one file gave.
    enum Outcome: Sendable {
        case data(Data)
        /// No file at the path (or a path component is not a folder).
        case absent
        case failed(String)
    }

    private static let queue = DispatchQueue(label: "mapcompose.tile-file-reads", attributes: .concurrent)

    /// Reads the file at `path` off the cooperative pool.
    static func read(_ path: String) async -> Outcome {
        await perform { readNow(path) }
    }

    /// Runs blocking file work (opens, positioned reads) on the reads' dispatch queue, so it
    /// never holds a thread of the cooperative pool.
    static func perform<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }

    /// Largest tile file accepted (a tile is at most a few MB; anything bigger is not a tile).
    static let maxBytes = 64 << 20

    static func readNow(_ path: String) -> Outcome {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return .absent }
            return .failed(String(cString: strerror(code)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failed(String(cString: strerror(errno))) }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .failed("is a folder, not a tile file") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .failed("is not a regular file") }
        guard info.st_size <= maxBytes else {
            return .failed("file of \(info.st_size) bytes is over the \(maxBytes >> 20) MiB tile limit")
        }
        var data = Data(count: Int(info.st_size))
        var total = 0
        let failure: Int32 = data.withUnsafeMutableBytes { raw in
            while total < raw.count {
                let n = Glibc.read(fd, raw.baseAddress! + total, raw.count - total)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if n == 0 { break }
                total += n
            }
            return 0
        }
        guard failure == 0 else { return .failed(String(cString: strerror(failure))) }
        if total < data.count { data.removeSubrange(total...) }
        return .data(data)
    }
}
