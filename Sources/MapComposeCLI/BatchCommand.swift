import ArgumentParser
import Foundation
import Logging
import MapComposeCommandLine
import MapComposeCore

/// `mapcompose batch MANIFEST`: many maps from a JSON Lines or CSV manifest, sharing one tile
/// store; a bad job fails alone; exit 1 when any failed.
struct BatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        _superCommandName: MapComposeCommand.name,
        abstract: "Render every job of a manifest (.jsonl, or .csv with a header row); exit 1 if any job failed.",
        discussion: """
        Each job has: output (relative to --out), center LAT,LON with zoom, or bbox W,S,E,N with padding; \
        optional size WxH, scale, style (relative to the manifest's folder, or a built-in name), format, quality, id.
        """)

    @Argument(help: "The manifest: JSON Lines (one object per line) or CSV (.csv, with a header row); - reads JSON Lines from standard input.")
    var manifest: String

    @Option(parsing: .unconditional, help: "Maps rendered at once (1…\(BatchRunner.maxJobs)); default: the cores this process may use.")
    var jobs = min(CPUPool.cores, BatchRunner.maxJobs)

    @Option(help: "Folder the jobs' outputs are written in.")
    var out = "Output"

    @Flag(help: "Skip jobs whose output already exists (outputs appear only when complete).")
    var resume = false

    @Option(help: "Take shard K of N (K/N, 1-based): the jobs whose position in the manifest is K-1 modulo N.")
    var shard: String?

    @Option(help: "Write one JSON line per job here: id, row, output, status, ms, tiles, tilesDecoded, fallbacks, warnings, error.")
    var results: String?

    @Flag(help: "Let rows name style files outside the manifest's folder (by default a style is a built-in name or a file in that folder).")
    var allowOutsidePaths = false

    @OptionGroup var tileMemory: TileMemoryOption

    @OptionGroup(title: "Remote sources (one disk cache for all jobs, and for shards on other machines)")
    var cacheOptions: CacheOptions

    mutating func run() async throws {
        let store = try tileMemory.store()
        let remote = try cacheOptions.environment()
        let options: BatchRunner.Options
        do throws(ManifestError) {
            options = BatchRunner.Options(jobs: jobs, outputFolder: out, resume: resume,
                                          shard: try shard.map { text throws(ManifestError) in try BatchShard(text) } ?? .all,
                                          resultsPath: results, remote: remote, allowOutsidePaths: allowOutsidePaths)
        } catch {
            throw CLIFailure("--\(error.description)")
        }
        let runner = BatchRunner(manifestPath: manifest, options: options,
                                 store: store, logger: Logger(label: "mapcompose"))
        let display = BatchProgressDisplay()
        let summary: BatchRunner.Summary
        do {
            summary = try await runner.run { display.update($0) }
        } catch {
            display.finish()
            throw CLIFailure(error.description)
        }
        display.finish()
        let progress = summary.progress
        let decodedPerMap = progress.written > 0 ? Double(progress.tilesDecoded) / Double(progress.written) : 0
        let styles = "\(summary.stylesLoaded) style\(summary.stylesLoaded == 1 ? "" : "s") loaded"
            + (summary.stylesFailed > 0 ? ", \(summary.stylesFailed) failed to load" : "")
        printError(String(format: "batch: %d written, %d already done, %d failed of %d jobs%@ in %.1f s (%.1f maps/s, %.2f tiles decoded per map, %@)",
                          progress.written, progress.skipped, progress.failed, progress.total ?? progress.done,
                          options.shard == .all ? "" : " (shard \(options.shard))", progress.elapsed,
                          progress.mapsPerSecond, decodedPerMap, styles))
        for failure in summary.failures {
            printError("failed: \(failure.row) (\(failure.id)): \(failure.error ?? "unknown error")")
        }
        if progress.failed > summary.failures.count {
            printError("… and \(progress.failed - summary.failures.count) more\(results.map { " (all are in \($0))" } ?? "")")
        }
        if progress.failed > 0 { throw CLIFailure(messages: [], exitCode: 1) }
    }
}
