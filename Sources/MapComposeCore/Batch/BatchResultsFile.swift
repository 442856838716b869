import Foundation
import Synchronization

/// The `--results` file: one JSON line per job, written by the job's task as it ends (so a
/// job whose image is in place has its line, even when a signal ends the batch). A new batch
/// starts the file afresh; a resumed one appends (after completing a line an interruption cut
/// short).
final class BatchResultsFile: Sendable {
    private let handle: Mutex<FileHandle>
    private let path: String
    /// The first write that failed; later lines are not written.
    private let failure = Mutex<ManifestError?>(nil)

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
        self.handle = Mutex(handle)
    }

    deinit {
        handle.withLock { try? $0.close() }
    }

    /// Appends one result as a line; a failure is kept for `writeError`.
    func append(_ result: BatchJobResult) {
        guard writeError == nil else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            var line = try encoder.encode(result)
            line.append(0x0A)
            try handle.withLock { try $0.write(contentsOf: line) }
        } catch {
            failure.withLock { $0 = $0 ?? ManifestError("--results \(path): cannot write: \(error.localizedDescription)") }
        }
    }

    /// Why a line could not be written, if one could not.
    var writeError: ManifestError? { failure.withLock { $0 } }
}
