import Foundation

/// One job's row of a batch manifest, as text fields by key, or why the row could not be read.
/// Rows are numbered from 1 in file order (for CSV, the header is row 1); every row, readable
/// or not, is one job, so shards and results count the same rows.
public struct ManifestRow: Sendable {
    /// Where the row is: `manifest.jsonl:12` (line) or `manifest.csv: row 12`.
    public let location: String
    /// 0 for the first job of the manifest, 1 for the next, …
    public let ordinal: Int
    /// The fields, or the reason the row could not be read.
    public let fields: Result<[String: String], ManifestError>

    public init(location: String, ordinal: Int, fields: Result<[String: String], ManifestError>) {
        self.location = location
        self.ordinal = ordinal
        self.fields = fields
    }
}

/// A manifest that cannot be read at all, or a row or field of it that is wrong.
public struct ManifestError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Reads a manifest's rows one at a time, so memory does not grow with the manifest.
public protocol ManifestRowReader: AnyObject {
    /// The next row, or nil at the end. A problem reading further (not a bad row) throws.
    func next() throws(ManifestError) -> ManifestRow?
}

/// Opens the reader a manifest's name asks for: `.csv` is CSV with a header row, anything
/// else JSON Lines; `-` is standard input (JSON Lines). Pipes and other files that are not
/// regular are read too, once, as a stream.
public enum ManifestFormat {
    /// The name that reads the manifest from standard input.
    public static let standardInputName = "-"

    public static func open(_ path: String) throws(ManifestError) -> any ManifestRowReader {
        if path == standardInputName {
            return JSONLinesManifestReader(handle: FileHandle.standardInput, name: "standard input")
        }
        guard !path.utf8.contains(0) else { throw ManifestError("the manifest path holds a NUL character") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw ManifestError("\(path): no such readable manifest file")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw ManifestError("\(path) is a folder: give a .jsonl or .csv manifest file")
        }
        if OutputPath.pathExtension(of: path).lowercased() == "csv" {
            return try CSVManifestReader(path: path)
        }
        return try JSONLinesManifestReader(path: path)
    }

    /// True when `path` is a regular file, which can be read twice (to count its rows first).
    public static func isRegularFile(_ path: String) -> Bool {
        guard path != standardInputName, !path.utf8.contains(0) else { return false }
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// The message for text that is not UTF-8: NUL bytes or a UTF-16/32 byte order mark.
    static func notUTF8(_ location: String) -> ManifestError {
        ManifestError("\(location): NUL bytes or a UTF-16 byte order mark: the manifest must be UTF-8 text "
                      + "(save it as UTF-8); rows from there on were not read")
    }
}
