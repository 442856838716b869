import ArgumentParser
import MapComposeCommandLine
import MapComposeCore

/// `--tile-memory MiB` for the commands that render many maps with one tile store.
struct TileMemoryOption: ParsableArguments {
    @Option(parsing: .unconditional, help: "MiB of decoded tiles kept in memory, shared by every map of the run (0 keeps none).")
    var tileMemory = TileStore.defaultMemoryBudget >> 20

    /// The run's tile store, or a failure for a budget outside 0…1048576 MiB.
    func store() throws(CLIFailure) -> TileStore {
        guard (0...(1 << 20)).contains(tileMemory) else {
            throw CLIFailure("--tile-memory \(tileMemory): expected 0…1048576 MiB")
        }
        // Many maps: tile buffers recycled from map to map serve them better than slabs.
        return TileStore(memoryBudget: tileMemory << 20, slabs: false)
    }
}
