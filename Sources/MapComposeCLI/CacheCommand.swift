import ArgumentParser
import Foundation
import MapComposeCommandLine
import MapComposeCore

/// `mapcompose cache stats|prune|clear`: looks after the disk cache of remote sources.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        _superCommandName: MapComposeCommand.name,
        abstract: "Show, trim or empty the disk cache of remote sources.",
        subcommands: [Stats.self, Prune.self, Clear.self])

    /// `--cache-dir` and `--layer`, shared by the subcommands.
    struct Selection: ParsableArguments {
        @Option(help: "Disk cache folder (default: $XDG_CACHE_HOME/mapcompose, else ~/.cache/mapcompose).")
        var cacheDir: String?

        @Option(help: "Only the caches of the layer with this id (or the cache folder with this name).")
        var layer: String?

        var cache: DiskTileCache {
            DiskTileCache(root: cacheDir.map { URL(fileURLWithPath: $0) } ?? DiskTileCache.defaultRoot())
        }

        /// The caches selected; an error when `--layer` names none, or when the folder holds
        /// folders but no cache (a project or another program's cache given as `--cache-dir`).
        func selected() throws(CLIFailure) -> [CacheDescription] {
            let all = cache.descriptions()
            let others = cache.unmarkedFolders()
            if all.isEmpty, !others.isEmpty {
                let names = others.prefix(5).joined(separator: ", ") + (others.count > 5 ? ", …" : "")
                throw CLIFailure("\(cache.root.path) is not a mapcompose cache folder: its folders (\(names)) carry no "
                                 + "\(CacheDescription.fileName) of a cache; nothing was touched. Give --cache-dir the "
                                 + "folder that renders use (default ~/.cache/mapcompose)")
            }
            guard let layer else { return all }
            let chosen = all.filter { $0.layer == layer || $0.id == layer }
            guard !chosen.isEmpty else {
                let known = Set(all.map(\.layer).filter { !$0.isEmpty }).sorted().joined(separator: ", ")
                throw CLIFailure("no cache of layer '\(layer)' in \(cache.root.path)"
                                 + (known.isEmpty ? " (the cache is empty)" : " (layers cached: \(known))"))
            }
            return chosen
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Entries and bytes per layer cache.")
        @OptionGroup var selection: Selection

        func run() throws {
            let caches = try selection.selected()
            printLine("cache folder: \(selection.cache.root.path)")
            var totalEntries = 0, totalBytes = 0
            for description in caches {
                let usage = CacheMaintenance.usage(of: selection.cache.folder(id: description.id))
                totalEntries += usage.entries
                totalBytes += usage.bytes
                let leftovers = usage.leftovers > 0 ? ", \(usage.leftovers) unfinished writes" : ""
                printLine("\(description.id): layer '\(description.layer)', \(usage.entries) entries, "
                      + "\(ByteText.text(usage.bytes)) of \(ByteText.text(description.maxBytes))\(leftovers)")
                if !description.source.isEmpty { print("  source: \(description.source)") }
            }
            printLine("total: \(caches.count) caches, \(totalEntries) entries, \(ByteText.text(totalBytes))")
        }
    }

    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove unfinished writes and the least recently used entries beyond each cache's size cap.")
        @OptionGroup var selection: Selection

        @Option(help: "Size cap to prune to instead of each cache's own (e.g. 100MB).")
        var maxSize: String?

        func run() throws {
            var cap: Int?
            if let maxSize {
                guard let bytes = StyleQuantity.bytes(maxSize) else { throw CLIFailure("--max-size '\(maxSize)': expected a size such as 100MB") }
                cap = bytes
            }
            for description in try selection.selected() {
                let removed = CacheMaintenance.evict(selection.cache.folder(id: description.id), toFit: cap ?? description.maxBytes)
                printLine("\(description.id): removed \(removed) entries")
            }
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete the selected caches.")
        @OptionGroup var selection: Selection

        func run() throws {
            for description in try selection.selected() {
                let folder = selection.cache.folder(id: description.id)
                do {
                    try FileManager.default.removeItem(at: folder)
                    printLine("\(description.id): cleared")
                } catch {
                    throw CLIFailure("cannot delete \(folder.path): \(error.localizedDescription)", exitCode: 1)
                }
            }
        }
    }
}

/// Byte counts for people: `12.3 MiB`.
enum ByteText {
    static func text(_ bytes: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes), unit = 0
        while value >= 1024, unit < units.count - 1 { value /= 1024; unit += 1 }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f", value) + " " + units[unit]
    }
}
