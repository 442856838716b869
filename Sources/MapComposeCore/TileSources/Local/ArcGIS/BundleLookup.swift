import Foundation

/// What a compact cache bundle holds for one tile.
enum BundleLookup: Sendable, Equatable {
    case tile(Data)
    /// The bundle has no tile here (size 0).
    case absent
    /// The index or the bundle is damaged: the reason, with offsets.
    case corrupt(String)
    /// Reading failed (an I/O error); asking again may succeed.
    case failed(String)

    /// The lookup for a positioned read of index bytes that failed.
    static func indexUnreadable(_ file: PositionedFile, at position: UInt64, _ error: PositionedReadError) -> BundleLookup {
        switch error {
        case .pastEnd: return .corrupt("\(file.path): index entry at byte \(position): \(error)")
        case .system(let reason): return .failed("\(file.path): \(reason)")
        }
    }
}
