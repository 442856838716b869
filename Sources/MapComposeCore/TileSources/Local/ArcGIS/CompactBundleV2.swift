import Foundation

/// An ArcGIS compact cache bundle of the second version (ArcGIS 10.3 and later): one `.bundle`
/// with a 64-byte header and, at byte 64, one little-endian 64-bit entry per tile, row by row
/// (entry (row % 128) × 128 + col % 128), each `offset | size << 40`; the tile's bytes are at
/// `offset`. Size 0 means no tile. Only the entry and the tile asked for are read.
struct CompactBundleV2: Sendable {
    static let side = 128
    static let header: UInt64 = 64
    /// Bytes a bundle must hold: the header and every entry.
    static let indexEnd = header + UInt64(side * side * 8)

    let file: PositionedFile

    /// The tile at `row`, `column` of the level (the bundle holding it is the caller's choice).
    func tile(row: Int, column: Int) -> BundleLookup {
        guard file.size >= Self.indexEnd else {
            return .corrupt("\(file.path) is truncated: \(file.size) bytes, its header and index need \(Self.indexEnd)")
        }
        let position = Self.header + UInt64(((row % Self.side) * Self.side + column % Self.side) * 8)
        switch file.littleEndian(at: position, width: 8) {
        case .success(let entry):
            return BundleTileRead.read(file, offset: entry & ((1 << 40) - 1), size: entry >> 40, row: row, column: column)
        case .failure(let error):
            return .indexUnreadable(file, at: position, error)
        }
    }
}
