import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file opened read-only for positioned reads (`pread`): any number of threads may
/// read from one instance at once, none moves a shared file position, and only the bytes asked
/// for are read. Owns its descriptor and closes it when released.
final class PositionedFile: Sendable {
    let path: String
    /// The file's size when it was opened.
    let size: UInt64
    /// The file's modification time when it was opened, in seconds since 1970.
    let modified: Double
    private let descriptor: Int32

    /// What opening a file gave.
    enum OpenOutcome {
        case opened(PositionedFile)
        /// No file at the path (or a path component is not a folder).
        case absent
        case failed(String)
    }

    private init(path: String, descriptor: Int32, size: UInt64, modified: Double) {
        self.path = path
        self.descriptor = descriptor
        self.size = size
        self.modified = modified
    }

    deinit {
        close(descriptor)
    }

    /// Opens `path`; a folder or special file is a failure (naming `kind`, e.g. "tile file"),
    /// a missing file is `absent`.
    static func open(_ path: String, kind: String = "file") -> OpenOutcome {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return .absent }
            return .failed(String(cString: strerror(code)))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            return .failed(reason)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            return .failed((info.st_mode & S_IFMT) == S_IFDIR ? "is a folder, not a \(kind)" : "is not a regular file")
        }
        return .opened(PositionedFile(path: path, descriptor: fd, size: UInt64(info.st_size),
                                      modified: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9))
    }

    /// Sets the file's modification time to now (a record of use; failures are ignored).
    func markUsed() {
        _ = futimens(descriptor, nil)
    }

    /// Exactly `count` bytes from `offset`, or the reason they cannot be had (past the end of
    /// the file, or a read error). Never reads outside the file.
    func read(at offset: UInt64, count: Int) -> Result<Data, PositionedReadError> {
        guard count >= 0, offset <= size, UInt64(count) <= size - offset else {
            return .failure(.pastEnd(offset: offset, count: count, size: size))
        }
        var data = Data(count: count)
        var total = 0
        let failure: Int32 = data.withUnsafeMutableBytes { raw in
            while total < count {
                let n = pread(descriptor, raw.baseAddress! + total, count - total, off_t(offset) + off_t(total))
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if n == 0 { break }
                total += n
            }
            return 0
        }
        if failure != 0 { return .failure(.system(String(cString: strerror(failure)))) }
        // The file shrank since it was opened.
        if total < count { return .failure(.pastEnd(offset: offset, count: count, size: offset + UInt64(total))) }
        return .success(data)
    }

    /// A little-endian unsigned integer of `width` bytes (1…8) at `offset`.
    func littleEndian(at offset: UInt64, width: Int) -> Result<UInt64, PositionedReadError> {
        read(at: offset, count: width).map { bytes in
            bytes.reversed().reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
        }
    }
}

/// Why a positioned read gave no bytes.
enum PositionedReadError: Error, Equatable, CustomStringConvertible {
    /// The bytes asked for lie (partly) past the end of the file.
    case pastEnd(offset: UInt64, count: Int, size: UInt64)
    case system(String)

    var description: String {
        switch self {
        case .pastEnd(let offset, let count, let size):
            return "\(count) bytes at offset \(offset) lie past the end of the \(size)-byte file"
        case .system(let reason): return reason
        }
    }
}
