import ArgumentParser
import Foundation
import Logging
import MapComposeCore

/// The `mapcompose` command: `render` is the default subcommand.
struct MapComposeCommand: AsyncParsableCommand {
    /// Every subcommand but the default one, by name.
    static let namedSubcommands: [ParsableCommand.Type] = [
        BatchCommand.self, DiffCommand.self, CheckCommand.self, ValidateCommand.self, StylesCommand.self, CacheCommand.self,
    ]

    /// The names of `namedSubcommands`, spelled out: reading them from the commands'
    /// configurations builds those (about half a millisecond of every render's start).
    /// `QuickRenderParseTests` checks they are the same.
    static let namedSubcommandNames = ["batch", "diff", "check", "validate", "styles", "cache"]

    /// The tool's name. Each subcommand names it as its super-command: parsed alone (see
    /// `parsedAlone`), a subcommand then skips ArgumentParser's completion-script check, which
    /// reflects over two more commands' options at every start.
    static let name = "mapcompose"

    static let configuration = CommandConfiguration(
        commandName: name,
        abstract: "Composite raster map tile layers into static map images.",
        version: Main.versionLine,
        subcommands: [RenderCommand.self] + namedSubcommands,
        defaultSubcommand: RenderCommand.self)
}

@main
enum Main {
    static let versionLine = "mapcompose \(MapComposeVersion.current)"

    static func main() async {
        // Answered before the parser is built: it reflects over every command's options, which
        // costs more than the rest of start-up.
        if CommandLine.arguments.dropFirst() == ["--version"] {
            print(versionLine)
            return
        }
        do {
            // A plain render skips ArgumentParser (see `RenderSettings.quickParse`).
            if let settings = RenderSettings.quickParse(CommandLine.arguments.dropFirst(),
                                                        subcommands: MapComposeCommand.namedSubcommandNames) {
                prepareToRun(verbose: settings.verbose)
                try await renderAndExit(settings)
            }
            var command: ParsableCommand
            if let alone = MapComposeCommand.parsedAlone(CommandLine.arguments.dropFirst()) {
                command = alone
            } else {
                command = try MapComposeCommand.parseAsRoot()
            }
            prepareToRun(verbose: (command as? RenderCommand)?.verbose ?? false)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as CLIFailure {
            for message in failure.messages { printError("error: \(message)") }
            exit(failure.exitCode)
        } catch {
            let code = MapComposeCommand.exitCode(for: error)
            let message = MapComposeCommand.fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(message) }
                exit(0)
            }
            printError(message)
            exit(2)
        }
    }

    /// Runs a plain render and ends the process on the thread that finished it. Returning would
    /// first hop back to the main actor, whose queue gets a new thread just to call `exit`.
    private nonisolated static func renderAndExit(_ settings: RenderSettings) async throws -> Never {
        try await settings.run()
        exit(0)
    }

    /// Logging and signals, once per process, before a command runs.
    private static func prepareToRun(verbose: Bool) {
        // swift-log: standard error, level info with `--verbose`, else warning.
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = verbose ? .info : .warning
            return handler
        }
        // Temporary output files are removed on SIGINT/SIGTERM/SIGHUP (exit 130/143/129);
        // a closed pipe on standard output becomes a write error instead of a silent death.
        PendingFileRegistry.removeOnTermination()
        signal(SIGPIPE, SIG_IGN)
    }
}
