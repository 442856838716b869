import Foundation
import GRDB
import GRDBSQLite

/// A time limit on each read of one SQLite connection, enforced by SQLite's progress handler:
/// a query that runs past it (a view over a recursive query, a join that never ends) is
/// interrupted instead of holding the render or `validate` forever.
final class StatementDeadline: @unchecked Sendable {
    /// Why a read was stopped.
    struct Exceeded: Error, CustomStringConvertible {
        let limit: Duration
        var description: String {
            "a query ran longer than \(limit) and was stopped: is this a real MBTiles file, "
                + "with 'tiles' a table (indexed on zoom_level, tile_column, tile_row)?"
        }
    }

    let limit: Duration
    /// When the read under way must end; touched only on the connection's own serial queue.
    private var end: ContinuousClock.Instant?

    init(limit: Duration) {
        self.limit = limit
    }

    /// Installs the check on `db`, every 1,000 virtual machine instructions; `self` must live as
    /// long as the connection.
    func install(on db: Database) {
        sqlite3_progress_handler(db.sqliteConnection, 1_000, { context in
            guard let context else { return 0 }
            return Unmanaged<StatementDeadline>.fromOpaque(context).takeUnretainedValue().isPast ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Runs `body` with the limit counting from now; an interrupted query throws `Exceeded`.
    func run<T>(_ body: () throws -> T) throws -> T {
        end = .now + limit
        defer { end = nil }
        do {
            return try body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT && isPast {
            throw Exceeded(limit: limit)
        }
    }

    private var isPast: Bool {
        end.map { ContinuousClock.now >= $0 } ?? false
    }
}
