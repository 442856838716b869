import Dispatch
import Foundation

/// An image's rows cut into consecutive bands, several per core so a busy core is made up for
/// by the others, for work that is done on all cores at once.
struct RowBands {
    /// The fewest rows a band holds (one band for smaller images).
    static let minimumRows = 16

    let rowCount: Int
    /// How many bands there are: at least one.
    let count: Int
    /// Rows of every band but the last, when fixed (see `init(rows:rowsPerBand:)`).
    private let fixedRows: Int?

    init(rows: Int, cores: Int = CPUPool.cores) {
        rowCount = rows
        count = max(1, min(max(1, cores) * 4, rows / Self.minimumRows))
        fixedRows = nil
    }

    /// Bands of `rowsPerBand` rows (the last one shorter), however many cores there are: for
    /// work whose result must not depend on where the bands start.
    init(rows: Int, rowsPerBand: Int) {
        rowCount = rows
        fixedRows = max(1, rowsPerBand)
        count = max(1, (rows + fixedRows! - 1) / fixedRows!)
    }

    /// The rows of band `index` (0 ..< count); together the bands cover every row once, in order.
    func rows(of index: Int) -> Range<Int> {
        if let fixedRows { return index * fixedRows..<min(rowCount, (index + 1) * fixedRows) }
        return rowCount * index / count..<rowCount * (index + 1) / count
    }

    /// Runs `body` for every band, on all cores, and returns when all are done; `body` may
    /// write only what belongs to its band.
    func forEachConcurrently(_ body: (_ band: Int, _ rows: Range<Int>) -> Void) {
        if count == 1 {
            body(0, rows(of: 0))
            return
        }
        ConcurrentWork.perform(count) { band in body(band, rows(of: band)) }
    }
}
