import Foundation

/// Reads whole tile files (through `PositionedFile`) on a dispatch queue, so blocking disk
/// reads never hold a thread of Swift's cooperative pool. One open-then-read, no separate
/// existence check, so a file that vanishes between the two cannot be misreported.
enum TileFileReader {
    /// What reading one file gave.
    enum Outcome: Sendable {
        case data(Data)
        /// No file at the path (or a path component is not a folder).
        case absent
        case failed(String)
    }

    private static let queue = DispatchQueue(label: "mapcompose.tile-file-reads", attributes: .concurrent)

    /// Reads the file at `path` off the cooperative pool; with `touchingOlderThan`, a file last
    /// modified longer ago than that many seconds gets the current time as its modification
    /// time (the disk cache's record of use).
    static func read(_ path: String, touchingOlderThan age: Double? = nil) async -> Outcome {
        await perform { readNow(path, touchingOlderThan: age) }
    }

    /// Runs blocking file work (opens, positioned reads, decoding) on the reads' dispatch queue,
    /// so it never holds a thread of the cooperative pool; as the calling task's work, on its core
    /// when it holds one (`CPUPool.onCallersCore`).
    static func perform<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        let work = CPUPool.onCallersCore(work)
        return await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }

    /// Largest tile file accepted (a tile is at most a few MB; anything bigger is not a tile).
    static let maxBytes = 64 << 20

    static func readNow(_ path: String, touchingOlderThan age: Double? = nil) -> Outcome {
        let file: PositionedFile
        switch PositionedFile.open(path, kind: "tile file") {
        case .opened(let opened): file = opened
        case .absent: return .absent
        case .failed(let reason): return .failed(reason)
        }
        guard file.size <= UInt64(maxBytes) else {
            return .failed("file of \(file.size) bytes is over the \(maxBytes >> 20) MiB tile limit")
        }
        if let age, Date().timeIntervalSince1970 - file.modified > age { file.markUsed() }
        switch file.read(at: 0, count: Int(file.size)) {
        case .success(let data): return .data(data)
        case .failure(.pastEnd): return .failed("the file shrank while it was read")
        case .failure(.system(let reason)): return .failed(reason)
        }
    }
}
