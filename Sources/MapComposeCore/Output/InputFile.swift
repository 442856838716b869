import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file named on the command line: a regular file whole, a pipe (`<(…)`, a FIFO,
/// standard input) as a stream to its end, at most `limit` bytes either way. Folders and
/// devices are refused, saying so (never as a permission problem).
public enum InputFile {
    /// Largest input read by default: 1 GiB.
    public static let defaultLimit = 1 << 30

    public static func read(_ path: String, limit: Int = defaultLimit) throws(InputFileError) -> Data {
        // Non-blocking open: opening a named pipe does not wait for a writer (reading does).
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputFileError(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw InputFileError(String(cString: strerror(errno))) }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            guard Int(info.st_size) <= limit else {
                throw InputFileError("it is \(info.st_size) bytes, over the limit of \(limit) bytes")
            }
            do {
                return try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
            } catch {
                throw InputFileError(PathStatus.describe(error))
            }
        case S_IFIFO, S_IFSOCK:
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            // A named pipe may be opened before its writer: wait for the writer's data or close.
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while poll(&waiting, 1, -1) < 0, errno == EINTR {}
            return try stream(descriptor, limit: limit)
        case S_IFDIR:
            throw InputFileError("it is a folder, not a regular file")
        default:
            throw InputFileError("it is a device, not a regular file")
        }
    }

    /// Everything a pipe holds until its end, refused past `limit` bytes.
    private static func stream(_ descriptor: Int32, limit: Int) throws(InputFileError) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { readSome(descriptor, $0) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputFileError(String(cString: strerror(errno)))
            }
            guard data.count + count <= limit else {
                throw InputFileError("the pipe holds more than the limit of \(limit) bytes")
            }
            data.append(buffer, count: count)
        }
    }
}

/// `read(2)` into `buffer`, out of reach of `InputFile.read`'s name.
private func readSome(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(descriptor, buffer.baseAddress, buffer.count)
}

/// Why an input file cannot be read: a short reason for a message that names the file.
public struct InputFileError: Error, CustomStringConvertible {
    public let reason: String

    init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
