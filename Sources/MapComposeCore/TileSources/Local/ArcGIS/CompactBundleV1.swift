import Foundation

/// An ArcGIS compact cache bundle of the first version (ArcGIS 10.0–10.2): tiles in a
/// `.bundle`, located by the `.bundlx` beside it. The `.bundlx` has a 16-byte header, then one
/// 5-byte little-endian offset per tile, column by column (entry (col % 128) × 128 + row % 128);
/// each offset points at the tile's 4-byte little-endian size, followed by its bytes. Size 0
/// means no tile. Only the entry and the tile asked for are read.
struct CompactBundleV1: Sendable {
    static let side = 128
    static let indexHeader: UInt64 = 16
    static let entryWidth = 5
    /// Bytes the `.bundlx` must hold: the header and every entry.
    static let indexBytes = indexHeader + UInt64(side * side * entryWidth)

    let index: PositionedFile
    let data: PositionedFile

    /// The tile at `row`, `column` of the level (the bundle holding it is the caller's choice).
    func tile(row: Int, column: Int) -> BundleLookup {
        guard index.size >= Self.indexBytes else {
            return .corrupt("\(index.path) is truncated: \(index.size) bytes, an index needs \(Self.indexBytes)")
        }
        let entry = Self.indexHeader + UInt64(((column % Self.side) * Self.side + row % Self.side) * Self.entryWidth)
        let offset: UInt64
        switch index.littleEndian(at: entry, width: Self.entryWidth) {
        case .success(let value): offset = value
        case .failure(let error): return .indexUnreadable(index, at: entry, error)
        }
        let size: UInt64
        switch data.littleEndian(at: offset, width: 4) {
        case .success(let value): size = value
        case .failure(.system(let reason)): return .failed("\(data.path): \(reason)")
        case .failure(.pastEnd):
            return .corrupt("\(index.path): the index entry for row \(row), column \(column) points at byte \(offset), "
                            + "past the end of \(data.path) (\(data.size) bytes)")
        }
        return BundleTileRead.read(data, offset: offset + 4, size: size, row: row, column: column)
    }
}
