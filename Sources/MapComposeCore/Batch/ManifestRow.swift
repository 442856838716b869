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
/// else JSON Lines.
public enum ManifestFormat {
    public static func open(_ path: String) throws(ManifestError) -> any ManifestRowReader {
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
}
