import Foundation

/// One directory of a PMTiles archive (the root, or a leaf): entries sorted by tile ID, each
/// either a run of tiles (the same bytes for `runLength` consecutive IDs) or, with a run
/// length of 0, a pointer to a leaf directory.
struct PMTilesDirectory: Sendable {
    struct Entry: Sendable, Equatable {
        var tileID: UInt64
        /// From the start of the tile data section (a tile) or of the leaf directories (a leaf).
        var offset: UInt64
        var length: UInt64
        var runLength: UInt64

        var isLeaf: Bool { runLength == 0 }
    }

    /// Most entries one directory may hold: far more than any real archive's (the format
    /// aims at about 16 KB of compressed root), few enough to keep a hostile one small.
    static let maxEntries = 1 << 22

    let entries: [Entry]

    /// Decodes the directory's bytes (already inflated): a varint count, then the tile ID
    /// deltas, run lengths, lengths and offsets, each a column of varints.
    init(_ data: Data) throws(PMTilesError.Reason) {
        var reader = VarintReader(data)
        let count = try reader.next("entry count")
        guard count <= UInt64(Self.maxEntries) else { throw .init("a directory claims \(count) entries") }
        var entries = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: Int(count))
        var tileID: UInt64 = 0
        for i in entries.indices {
            let (next, overflow) = tileID.addingReportingOverflow(try reader.next("tile ID"))
            guard !overflow else { throw .init("tile IDs overflow 64 bits") }
            tileID = next
            entries[i].tileID = tileID
        }
        for i in entries.indices { entries[i].runLength = try reader.next("run length") }
        for i in entries.indices {
            entries[i].length = try reader.next("length")
            guard entries[i].length <= UInt64(UInt32.max) else { throw .init("an entry is \(entries[i].length) bytes long") }
        }
        for i in entries.indices {
            let value = try reader.next("offset")
            if value == 0 && i > 0 {
                entries[i].offset = entries[i - 1].offset &+ entries[i - 1].length
            } else {
                guard value > 0 else { throw .init("the first entry has no offset") }
                entries[i].offset = value - 1
            }
        }
        self.entries = entries
    }

    /// The entry holding `tileID`: the tile's run, or the leaf directory that may hold it.
    func find(_ tileID: UInt64) -> Entry? {
        var low = 0, high = entries.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if entries[middle].tileID < tileID {
                low = middle + 1
            } else if entries[middle].tileID > tileID {
                high = middle - 1
            } else {
                return entries[middle]
            }
        }
        // `high` is the last entry before the ID.
        guard high >= 0 else { return nil }
        let entry = entries[high]
        if entry.isLeaf || tileID - entry.tileID < entry.runLength { return entry }
        return nil
    }
}

/// Unsigned LEB128 varints, one after another.
struct VarintReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ data: Data) {
        bytes = [UInt8](data)
    }

    /// The next varint; `what` names it if the data ends or it runs past 64 bits.
    mutating func next(_ what: String) throws(PMTilesError.Reason) -> UInt64 {
        var value: UInt64 = 0, shift: UInt64 = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            guard shift < 64, shift < 63 || byte & 0x7F <= 1 else { throw .init("a \(what) runs past 64 bits") }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        throw .init("the directory ends inside a \(what)")
    }
}
