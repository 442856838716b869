import ArgumentParser
import MapComposeCommandLine
import MapComposeCore

/// `mapcompose validate STYLE…`: loads each style and reports every problem; exit 0 or 2.
/// A TileJSON or WMTS capabilities document whose server does not answer is a note, not a
/// problem: styles can be checked where their servers do not run. Only the variables named by
/// `--allow-env` are sent: a document whose request needs another is not fetched (a note).
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        _superCommandName: MapComposeCommand.name,
        abstract: "Check style files; print every problem with file, line and key path.")

    @Argument(help: "Style files, or names of built-in styles.")
    var styles: [String]

    @OptionGroup var cache: CacheOptions

    mutating func run() async throws {
        guard !styles.isEmpty else { throw CLIFailure("validate needs at least one style file") }
        var problems: [String] = []
        let remote = try cache.environment(documentsMayBeUnreachable: true, sendsOnlyAllowedVariables: true)
        for style in styles {
            do {
                let loaded = try StyleArgument.load(style, remote: remote)
                let count = loaded.mapLibreLayerCount ?? loaded.layers.count
                let kind = loaded.mapLibreLayerCount == nil ? "" : "MapLibre style, "
                printLine("ok: \(style) (\(kind)\(count) layer\(count == 1 ? "" : "s"))")
                for note in loaded.notes { printError("note: \(note)") }
            } catch {
                problems += error.messages
            }
        }
        if !problems.isEmpty { throw CLIFailure(messages: problems, exitCode: 2) }
    }
}
