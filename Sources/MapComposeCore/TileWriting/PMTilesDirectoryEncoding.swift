extension PMTilesDirectory {
    /// Largest root directory: it and the 127-byte header fill at most the first 16 KB, which
    /// readers fetch in one request.
    static let maxRootBytes = 16_384 - PMTilesHeader.length

    /// `entries` (sorted by tile ID) as a gzip'd directory: a varint count, then the tile ID
    /// deltas, run lengths, lengths and offsets, each a column of varints; an offset that
    /// follows on from the previous entry's bytes is written 0, any other as offset + 1.
    static func encoded(_ entries: ArraySlice<Entry>) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.varint(UInt64(entries.count))
        var previousID: UInt64 = 0
        for entry in entries {
            writer.varint(entry.tileID - previousID)
            previousID = entry.tileID
        }
        for entry in entries { writer.varint(entry.runLength) }
        for entry in entries { writer.varint(entry.length) }
        var previous: Entry?
        for entry in entries {
            let follows = previous.map { entry.offset == $0.offset + $0.length } ?? false
            writer.varint(follows ? 0 : entry.offset + 1)
            previous = entry
        }
        return Gzip.compress(writer.bytes)
    }

    /// The root directory and the leaf directories (one after another, offsets from the first)
    /// for `entries`: all in the root when it fits `maxRootBytes`; else leaves of 4096 entries,
    /// doubled until the root's pointers to them (run length 0) fit.
    static func rootAndLeaves(_ entries: [Entry], maxRootBytes: Int = maxRootBytes) -> (root: [UInt8], leaves: [UInt8]) {
        let whole = encoded(entries[...])
        if whole.count <= maxRootBytes { return (whole, []) }
        var leafSize = 4096
        while true {
            var leaves: [UInt8] = [], pointers: [Entry] = []
            for start in stride(from: 0, to: entries.count, by: leafSize) {
                let leaf = encoded(entries[start..<min(start + leafSize, entries.count)])
                pointers.append(Entry(tileID: entries[start].tileID, offset: UInt64(leaves.count),
                                      length: UInt64(leaf.count), runLength: 0))
                leaves += leaf
            }
            let root = encoded(pointers[...])
            if root.count <= maxRootBytes || pointers.count == 1 { return (root, leaves) }
            leafSize *= 2
        }
    }
}
