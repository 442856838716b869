import Foundation

/// The `--results` file: one JSON line per job, written as each job ends. A new batch starts
/// the file afresh; a resumed one appends (after completing a line an interruption cut short).
final class BatchResultsFile {
    private let handle: FileHandle
    private let path: String
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    init(path: String, append: Bool) throws(ManifestError) {
        let manager = FileManager.default
        if !append || !manager.fileExists(atPath: path) {
            guard manager.createFile(atPath: path, contents: nil) else {
                throw ManifestError("--results \(path): cannot create the file (does its folder exist and is it writable?)")
            }
        }
        guard let handle = FileHandle(forUpdatingAtPath: path) else {
            throw ManifestError("--results \(path): cannot open the file for writing")
        }
        self.handle = handle
        self.path = path
        do {
            let end = try handle.seekToEnd()
            if end > 0 {
                try handle.seek(toOffset: end - 1)
                if try handle.read(upToCount: 1) != Data([0x0A]) { try handle.write(contentsOf: Data([0x0A])) }
            }
        } catch {
            throw ManifestError("--results \(path): \(error.localizedDescription)")
        }
    }

    deinit {
        try? handle.close()
    }

    /// Appends one result as a line.
    func append(_ result: BatchJobResult) throws(ManifestError) {
        do {
            var line = try encoder.encode(result)
            line.append(0x0A)
            try handle.write(contentsOf: line)
        } catch {
            throw ManifestError("--results \(path): cannot write: \(error.localizedDescription)")
        }
    }
}
