import CSV
import Foundation

/// Reads a CSV manifest (RFC 4180, with a header row naming the fields) row by row through
/// CSV.swift's streaming reader. Empty cells count as not given; a row with another number of
/// cells than the header is a bad row, not the end.
public final class CSVManifestReader: ManifestRowReader {
    private let reader: CSVReader
    private let header: [String]
    private let name: String
    /// The header is row 1.
    private var rowNumber = 1
    private var ordinal = 0

    public init(path: String) throws(ManifestError) {
        guard let stream = InputStream(fileAtPath: path) else {
            throw ManifestError("\(path): cannot open the manifest for reading")
        }
        do {
            reader = try CSVReader(stream: stream, hasHeaderRow: true, trimFields: true)
        } catch {
            throw ManifestError("\(path): no header row (an empty or unreadable CSV file); "
                                + "the first row names the fields, e.g. output,center,zoom,size")
        }
        header = reader.headerRow ?? []
        name = path
        if header.contains(where: { $0.utf8.contains(0) }) { throw ManifestFormat.notUTF8("\(path): row 1") }
        let named = header.filter { !$0.isEmpty }
        guard !named.isEmpty else {
            throw ManifestError("\(path): row 1: the header row names no fields, e.g. output,center,zoom,size")
        }
        if let repeated = Dictionary(grouping: named, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
            throw ManifestError("\(path): row 1: the header names '\(repeated)' twice")
        }
    }

    public func next() throws(ManifestError) -> ManifestRow? {
        while let cells = reader.next() {
            rowNumber += 1
            if cells.contains(where: { $0.utf8.contains(0) }) { throw ManifestFormat.notUTF8("\(name): row \(rowNumber)") }
            if cells.allSatisfy(\.isEmpty) { continue }
            defer { ordinal += 1 }
            let location = "\(name): row \(rowNumber)"
            guard cells.count == header.count else {
                return ManifestRow(location: location, ordinal: ordinal, fields: .failure(ManifestError(
                    "\(cells.count) cell\(cells.count == 1 ? "" : "s") where the header has \(header.count) "
                    + "(\(header.joined(separator: ","))); quote cells that hold commas, e.g. \"51.5,-0.12\"")))
            }
            var fields: [String: String] = [:]
            for (key, value) in zip(header, cells) where !key.isEmpty && !value.isEmpty { fields[key] = value }
            return ManifestRow(location: location, ordinal: ordinal, fields: .success(fields))
        }
        // CSV.swift ends every stream with `cannotReadFile` (no byte left); the others are real.
        switch reader.error as? CSVError {
        case .unicodeDecoding?:
            throw ManifestError("\(name): row \(rowNumber + 1): not UTF-8 text; rows from there on were not read")
        case .streamErrorHasOccurred(let error)?:
            throw ManifestError("\(name): row \(rowNumber + 1): cannot read further (\(error.localizedDescription))")
        default:
            break
        }
        return nil
    }
}
