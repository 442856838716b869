#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Output paths taken apart by plain string rules, so that any name, however short, has a
/// folder, a name and an extension; and the chain of symbolic links behind a path.
public enum OutputPath {
    /// The folder part: `.` for a bare name, `/` for a name in the root folder.
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = path[..<slash]
        return folder.isEmpty ? "/" : String(folder)
    }

    /// The last component (empty when the path ends in `/`).
    public static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// The extension without its dot, or `""` (a leading dot, as in `.png`, starts no extension).
    public static func pathExtension(of path: String) -> String {
        let name = name(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// `name` in `folder`, as `folder/name` (just `name` in `.`).
    public static func joined(_ folder: String, _ name: String) -> String {
        // `maps/` and `maps` name the same folder: one slash between it and the name.
        var folder = Substring(folder)
        while folder.utf8.count > 1, folder.utf8.last == UInt8(ascii: "/") { folder = folder.dropLast() }
        switch folder {
        case ".": return name
        case "/": return "/" + name
        default: return String(folder) + "/" + name
        }
    }

    /// Refuses a path that no file can have: one holding a NUL (the system would cut it short
    /// there and write another file), or an empty one.
    public static func check(_ path: String) throws(OutputError) {
        guard !path.isEmpty else { throw OutputError(path: path, reason: "the path is empty") }
        guard !path.utf8.contains(0) else {
            throw OutputError(path: path, reason: "the path holds a NUL character, which no file name can")
        }
    }

    /// The path a write to `path` really lands on: each symbolic link in turn replaced by
    /// what it points to (relative links resolve against the link's folder). A link to a
    /// path that does not exist yet resolves to that path.
    public static func followingLinks(_ path: String) throws(OutputError) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count >= 0 else {
                throw OutputError(path: path, reason: "cannot read the link '\(current)': \(String(cString: strerror(errno)))")
            }
            let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : joined(folder(of: current), target)
        }
        throw OutputError(path: path, reason: "too many levels of symbolic links")
    }
}
