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
///
/// Every read runs under a `StatementDeadline` (`statementLimit`), so that no file can make a
/// read run forever.
final class ReadOnlyConnections: @unchecked Sendable {
    /// How long one read may run by default: far more than any indexed tile lookup needs.
    static let defaultStatementLimit = Duration.seconds(10)

    /// A connection and the deadline its progress handler checks.
    private struct Slot {
        let queue: DatabaseQueue
        let deadline: StatementDeadline
    }

    let path: String
    let statementLimit: Duration
    private let first: Slot
    private let lock = NSLock()
    private var slots: [Slot?]
    private var next = 0

    /// Opens the first connection now (so a bad file fails here); the others on first use.
    init(path: String, count: Int = 4, statementLimit: Duration = defaultStatementLimit) throws {
        self.path = path
        self.statementLimit = statementLimit
        first = try Self.open(path, statementLimit: statementLimit)
        slots = [first] + Array(repeating: nil, count: max(1, count) - 1)
    }

    /// Reads with the connection opened by `init` (for setup queries).
    func readFirst<T>(_ body: (Database) throws -> T) throws -> T {
        try Self.read(first, body)
    }

    /// Reads with the next connection in turn, opened if it has not been yet.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let slot = try lock.withLock {
            let index = next
            next = (next + 1) % slots.count
            if let slot = slots[index] { return slot }
            let slot = try Self.open(path, statementLimit: statementLimit)
            slots[index] = slot
            return slot
        }
        return try Self.read(slot, body)
    }

    private static func read<T>(_ slot: Slot, _ body: (Database) throws -> T) throws -> T {
        try slot.queue.read { db in try slot.deadline.run { try body(db) } }
    }

    private static func open(_ path: String, statementLimit: Duration) throws -> Slot {
        let deadline = StatementDeadline(limit: statementLimit)
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "mbtiles-reader"
        configuration.prepareDatabase { db in deadline.install(on: db) }
        return Slot(queue: try DatabaseQueue(path: path, configuration: configuration), deadline: deadline)
    }
}
