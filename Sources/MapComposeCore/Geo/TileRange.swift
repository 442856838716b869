import Foundation

/// A rectangular block of tiles of one level (columns may run past the antimeridian).
public struct TileRange: Equatable, Sendable {
    public let level: Int
    public let columns: ClosedRange<Int>
    public let rows: ClosedRange<Int>

    public init(level: Int, columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
        self.level = level
        self.columns = columns
        self.rows = rows
    }

    /// Number of tiles in the block (saturating, so absurd ranges cannot overflow).
    public var count: Int {
        let (product, overflow) = columns.count.multipliedReportingOverflow(by: rows.count)
        return overflow ? Int.max : product
    }

    /// The tiles, row by row.
    public var tiles: [TileCoord] {
        rows.flatMap { y in columns.map { TileCoord(z: level, x: $0, y: y) } }
    }

    /// The block cut into sub-blocks of at most `columns × rows` tiles, row by row.
    public func blocks(columns maxColumns: Int, rows maxRows: Int) -> [TileRange] {
        let c = max(1, maxColumns), r = max(1, maxRows)
        return stride(from: rows.lowerBound, through: rows.upperBound, by: r).flatMap { y in
            stride(from: columns.lowerBound, through: columns.upperBound, by: c).map { x in
                TileRange(level: level, columns: x...min(x + c - 1, columns.upperBound),
                          rows: y...min(y + r - 1, rows.upperBound))
            }
        }
    }
}
