import Synchronization

/// A number for each distinct symbolizer a process has drawn with: equal symbolizers get the
/// same number, different ones different numbers. A GeoJSON source's tiles are told apart by
/// their data and symbolizer (`TileSourceInfo.identity`); the number names the symbolizer
/// exactly, every field of it, without describing it field by field through reflection, which
/// is slow enough to show in a small map's whole time.
enum SymbolizerNumbers {
    private static let numbers = Mutex<[FeatureSymbolizer: Int]>([:])

    /// `symbolizer`'s number in this process.
    static func number(for symbolizer: FeatureSymbolizer) -> Int {
        numbers.withLock { table in
            if let known = table[symbolizer] { return known }
            let next = table.count
            table[symbolizer] = next
            return next
        }
    }
}
