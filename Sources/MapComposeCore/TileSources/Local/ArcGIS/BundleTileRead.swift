import Foundation

/// Reads one tile's bytes out of a bundle after its index gave the offset and size, checking
/// both against the file (shared by both bundle versions).
enum BundleTileRead {
    /// Largest tile accepted (as for tile files: anything bigger is not a tile).
    static let maxBytes: UInt64 = UInt64(TileFileReader.maxBytes)

    static func read(_ file: PositionedFile, offset: UInt64, size: UInt64, row: Int, column: Int) -> BundleLookup {
        if size == 0 { return .absent }
        let place = "the tile at row \(row), column \(column)"
        guard size <= maxBytes else {
            return .corrupt("\(file.path): \(place) claims \(size) bytes, over the \(maxBytes >> 20) MiB tile limit")
        }
        guard offset <= file.size else {
            return .corrupt("\(file.path): the index entry for \(place) points at byte \(offset), "
                            + "past the end of the file (\(file.size) bytes)")
        }
        switch file.read(at: offset, count: Int(size)) {
        case .success(let data): return .tile(data)
        case .failure(.pastEnd):
            return .corrupt("\(file.path) is truncated: \(place) needs \(size) bytes from byte \(offset), "
                            + "the file ends at \(file.size)")
        case .failure(.system(let reason)): return .failed("\(file.path): \(reason)")
        }
    }
}
