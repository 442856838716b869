import ArgumentParser
import Foundation
import MapComposeCommandLine
import MapComposeCore

/// `mapcompose check SUITE_DIR`: renders every case of a suite, compares it with its expected
/// images and writes an HTML report; exit 1 when a case fails.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        _superCommandName: MapComposeCommand.name,
        abstract: "Render each case of a suite folder, compare with its expected*.png, write an HTML report; exit 1 on any failure.")

    @Argument(help: "A suite folder: sub-folders each holding case.yaml and expected*.png (or one such case folder).")
    var suite: String

    @Option(help: "Folder for <case>/actual.png, diff.png, report.json and index.html (default: SUITE-report beside the suite).")
    var out: String?

    @Flag(help: "Rewrite each case's closest expected image with its render (or record expected.png).")
    var update = false

    @Flag(help: "Let cases name style files outside the suite folder (by default a case's style is a built-in name or a file in the suite).")
    var allowOutsidePaths = false

    @OptionGroup var tileMemory: TileMemoryOption

    @OptionGroup(title: "Remote sources")
    var cacheOptions: CacheOptions

    mutating func run() async throws {
        let store = try tileMemory.store()
        let outputFolder = out.map { URL(fileURLWithPath: $0).standardizedFileURL } ?? Self.defaultOutput(for: suite)
        let remote = try cacheOptions.environment()
        let outcomes: [CheckCaseOutcome]
        do throws(ManifestError) {
            outcomes = try await CheckSuite(folder: URL(fileURLWithPath: suite), outputFolder: outputFolder,
                                            update: update, store: store,
                                            remote: remote, allowOutsidePaths: allowOutsidePaths).run()
        } catch {
            throw CLIFailure(error.description)
        }
        for outcome in outcomes {
            printLine("\(outcome.status.rawValue.uppercased()) \(outcome.name): \(outcome.message)")
        }
        let failed = outcomes.filter { $0.status == .failed }.count
        printLine("\(outcomes.count - failed) of \(outcomes.count) cases passed; report: \(outputFolder.appendingPathComponent("index.html").path)")
        if failed > 0 { throw CLIFailure(messages: [], exitCode: 1) }
    }

    /// `SUITE-report` beside the suite folder: results land with the suite, wherever the
    /// command runs from.
    static func defaultOutput(for suite: String) -> URL {
        let folder = URL(fileURLWithPath: suite).standardizedFileURL
        return folder.deletingLastPathComponent().appendingPathComponent(folder.lastPathComponent + "-report")
    }
}
