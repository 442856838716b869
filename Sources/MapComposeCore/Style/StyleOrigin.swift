import Foundation

/// Where a style's text came from, and how its relative paths resolve.
public enum StyleOrigin: Sendable {
    /// A file on disk: relative paths resolve against its folder.
    case file(URL)
    /// A style built into the binary: relative paths name its embedded files.
    case builtIn(BuiltInStyle)

    /// The name used in messages.
    public var displayName: String {
        switch self {
        case .file(let url): return url.relativePath
        case .builtIn(let style): return "built-in:\(style.name)"
        }
    }

    /// The folder that relative paths resolve against, for styles on disk.
    var baseDirectory: URL? {
        if case .file(let url) = self { return url.deletingLastPathComponent() }
        return nil
    }

    /// The built-in style's data at `path` stored ready to read (see `PreparedGeoJSON`), if any.
    func preparedGeoJSON(at path: String) -> Data? {
        guard case .builtIn(let style) = self else { return nil }
        return style.preparedFiles[path]?()
    }

    /// Reads a file the style names by a relative (or absolute) path.
    func data(at path: String) throws(StyleOriginError) -> Data {
        switch self {
        case .builtIn(let style):
            guard let text = style.files[path] else { throw .noSuchFile(path, lookedIn: "the built-in style") }
            return Data(utf8Of: text)
        case .file:
            let url = try existingFile(path)
            do {
                return try PathStatus.read(url)
            } catch {
                throw .unreadable(path, error.reason)
            }
        }
    }

    /// The URL of a regular file the style names, or why it cannot be used.
    func existingFile(_ path: String) throws(StyleOriginError) -> URL {
        guard let url = resolve(path) else { throw .notOnDisk(path) }
        let status = PathStatus(url)
        switch status {
        case .file:
            return url
        case .missing:
            throw .noSuchFile(path, lookedIn: url.deletingLastPathComponent().path)
        default:
            throw .unusable(path, status.problem(expecting: "a file") ?? "cannot be used")
        }
    }

    /// The file URL for `path` on disk; nil for built-in styles.
    func resolve(_ path: String) -> URL? {
        guard let base = baseDirectory else { return nil }
        guard !path.isEmpty else { return base }
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).standardizedFileURL }
        return base.appendingPathComponent(path).standardizedFileURL
    }
}

/// A file a style refers to that cannot be used.
enum StyleOriginError: Error, CustomStringConvertible {
    case noSuchFile(String, lookedIn: String)
    case unreadable(String, String)
    case unusable(String, String)
    case notOnDisk(String)

    var description: String {
        switch self {
        case .noSuchFile(let path, let folder): return "no such file '\(path)' (looked in \(folder))"
        case .unreadable(let path, let reason): return "cannot read '\(path)': \(reason)"
        case .unusable(let path, let problem): return "'\(path)' \(problem)"
        case .notOnDisk(let path): return "'\(path)' must be a file on disk, which built-in styles cannot name"
        }
    }
}

extension Data {
    /// The UTF-8 bytes of `text`, copied whole (Data's initialiser from a sequence appends them
    /// one by one).
    init(utf8Of text: String) {
        self = text.utf8.withContiguousStorageIfAvailable { Data(buffer: $0) } ?? Data(text.utf8)
    }
}
