import Foundation
import GRDB

/// A few read-only connections to one SQLite file, handed out in turn, so that concurrent
/// tile reads run in parallel instead of queueing behind one connection.
///
/// Not a GRDB `DatabasePool`: that one gets its concurrent readers from WAL mode, which it
/// switches the file to when it opens it for writing; an MBTiles file we only read is usually
/// in rollback-journal mode, may sit where we cannot write, and must not be changed by us.
/// Plain read-only `DatabaseQueue`s need neither. Each queue runs its work on its own dispatch
/// queue (GRDB's async `read` suspends the calling task), so no read blocks Swift's cooperative
/// thread pool.
final class ReadOnlyConnections: @unchecked Sendable {
    let path: String
    private let lock = NSLock()
    private var slots: [DatabaseQueue?]
    private var next = 0

    /// Opens the first connection now (so a bad file fails here); the others on first use.
    init(path: String, count: Int = 4) throws {
        self.path = path
        slots = Array(repeating: nil, count: max(1, count))
        slots[0] = try Self.open(path)
    }

    /// The connection opened by `init`, for setup queries.
    var first: DatabaseQueue { slots[0]! }

    /// The next connection in turn, opened if it has not been yet.
    func connection() throws -> DatabaseQueue {
        try lock.withLock {
            let index = next
            next = (next + 1) % slots.count
            if let queue = slots[index] { return queue }
            let queue = try Self.open(path)
            slots[index] = queue
            return queue
        }
    }

    private static func open(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "mbtiles-reader"
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}
