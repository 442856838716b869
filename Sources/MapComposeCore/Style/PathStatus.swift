import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What is at a path on disk (symbolic links followed), with the operating system's reason
/// when it cannot be reached, so messages can say why a file cannot be used.
enum PathStatus: Equatable {
    case file
    case folder
    case missing
    /// A device, socket or pipe: never read (a pipe would block).
    case special
    /// A symbolic link whose target does not exist.
    case danglingLink(target: String)
    /// Symbolic links that point at each other.
    case linkLoop(reason: String)
    /// The path cannot be looked up (a parent is a file, no permission, name too long, …).
    case unreachable(reason: String)

    init(_ url: URL) {
        let path = url.path
        guard !path.isEmpty else {
            self = .missing
            return
        }
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR: self = .folder
            case S_IFREG: self = .file
            default: self = .special
            }
            return
        }
        let code = errno
        switch code {
        case ENOENT:
            var linkInfo = stat()
            if lstat(path, &linkInfo) == 0, linkInfo.st_mode & S_IFMT == S_IFLNK {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                self = .danglingLink(target: target)
            } else {
                self = .missing
            }
        case ELOOP: self = .linkLoop(reason: Self.reason(code))
        default: self = .unreachable(reason: Self.reason(code))
        }
    }

    /// Why a path that should hold `what` ("a style file", "a folder", …) cannot be used, or nil
    /// when it can. `.missing` reads "does not exist"; callers often say more (where they looked).
    func problem(expecting what: String) -> String? {
        let folderWanted = what == "a folder"
        switch self {
        case .file: return folderWanted ? "is a file, not a folder" : nil
        case .folder: return folderWanted ? nil : "is a folder, not \(what)"
        case .missing: return "does not exist"
        case .special: return "is a device, socket or pipe, not \(what)"
        case .danglingLink(let target): return "is a symbolic link to '\(target)', which does not exist"
        case .linkLoop(let reason): return "cannot be resolved: its symbolic links form a loop (\(reason))"
        case .unreachable(let reason): return "cannot be reached: \(reason)"
        }
    }

    /// The file's bytes; the error is a short reason (the operating system's, when known).
    static func read(_ url: URL) throws(PathReadError) -> Data {
        // Foundation refuses these with "Permission denied", which sends people looking at
        // the file's permissions.
        if case .special = PathStatus(url), let problem = PathStatus.special.problem(expecting: "a file") {
            throw PathReadError(reason: problem)
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw PathReadError(reason: describe(error))
        }
    }

    /// A Foundation file error as the operating system's reason rather than Cocoa's generic text.
    static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain { return reason(Int32(nsError.code)) }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return reason(Int32(underlying.code))
        }
        switch nsError.code {
        case NSFileReadNoPermissionError: return reason(EACCES)
        case NSFileReadNoSuchFileError: return reason(ENOENT)
        case NSFileReadTooLargeError: return "the file is too large"
        default: return "read error \(nsError.code)"
        }
    }

    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// A file that exists but could not be read.
struct PathReadError: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
