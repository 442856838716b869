import ArgumentParser
import Foundation
import Logging
import MapComposeCore

/// The `mapcompose` command: `render` is the default subcommand.
struct MapComposeCommand: AsyncParsableCommand {
    /// Every subcommand but the default one, by name.
    static let namedSubcommands: [ParsableCommand.Type] = [
        BatchCommand.self, DiffCommand.self, CheckCommand.self, ValidateCommand.self, StylesCommand.self, CacheCommand.self,
        ServeCommand.self, BasemapCommand.self,
    ]

    /// The names of `namedSubcommands`, spelled out: reading them from the commands'
    /// configurations builds those at every render's start.
    /// `QuickRenderParseTests` checks they are the same.
    static let namedSubcommandNames = ["batch", "diff", "check", "validate", "styles", "cache", "serve", "basemap"]

    /// The tool's name. Each subcommand names it as its super-command: parsed alone (see
    /// `parsedAlone`), a subcommand then skips ArgumentParser's completion-script check, which
    /// reflects over two more commands' options at every start.
    static let name = "mapcompose"

    static let configuration = CommandConfiguration(
        commandName: name,
        abstract: "Composite raster map tile layers into static map images.",
        discussion: "A map: mapcompose --center 51.5,-0.12 --zoom 12 out.png. Its options: mapcompose render --help.",
        version: Main.versionLine,
        subcommands: [RenderCommand.self] + namedSubcommands,
        defaultSubcommand: RenderCommand.self)
}

@main
enum Main {
    static let versionLine = "mapcompose \(MapComposeVersion.current)"

    /// Synchronous on purpose: the command runs as a task on the thread pool and ends the
    /// process with `exit`, while the main thread only waits for signals. With an `async` main
    /// the main thread would leave through `dispatch_main`, which ends it with `pthread_exit`,
    /// unwinding its stack. Nothing here uses the main queue or the main actor, so the main
    /// thread runs no run loop.
    static func main() {
        // Answered before the parser is built: it reflects over every command's options, which
        // costs more than the rest of start-up.
        if CommandLine.arguments.dropFirst() == ["--version"] {
            print(versionLine)
            return
        }
        // No arguments: what a first map needs, and the render options.
        if CommandLine.arguments.count == 1 {
            printError("error: no output file: e.g. mapcompose --center 51.5,-0.12 --zoom 12 out.png\n", keepingNewlines: true)
            printError(RenderCommand.helpMessage(columns: 100), keepingNewlines: true)
            exit(2)
        }
        // The thread pool's threads block every signal, and a process started from one of them
        // (by a test, say) starts with its signals blocked: the main thread takes them all, so
        // SIGINT and SIGTERM reach `PendingFileRegistry`'s handler (`dispatch_main` did the same).
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        pthread_sigmask(SIG_SETMASK, &noSignals, nil)
        Task.detached { await runAndExit() }
        // A signal's handler ends the process (see `PendingFileRegistry`); `pause` returns only
        // after a handler that returns.
        while true { pause() }
    }

    /// Parses the arguments, runs the command and ends the process with its exit code.
    private nonisolated static func runAndExit() async -> Never {
        do {
            // A plain render skips ArgumentParser (see `RenderSettings.quickParse`).
            if let settings = RenderSettings.quickParse(CommandLine.arguments.dropFirst(),
                                                        subcommands: MapComposeCommand.namedSubcommandNames) {
                prepareToRun(verbose: settings.verbose)
                try await settings.run()
                exit(0)
            }
            var command: ParsableCommand
            if let alone = MapComposeCommand.parsedAlone(CommandLine.arguments.dropFirst()) {
                command = alone
            } else {
                command = try MapComposeCommand.parseAsRoot()
            }
            prepareToRun(verbose: (command as? RenderCommand)?.verbose ?? (command is ServeCommand))
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exit(0)
        } catch let failure as CLIFailure {
            for message in failure.messages { printError("error: \(message)") }
            exit(failure.exitCode)
        } catch {
            let code = MapComposeCommand.exitCode(for: error)
            let message = MapComposeCommand.fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(TerminalText.escaped(message, keepingNewlines: true)) }
                exit(0)
            }
            // ArgumentParser's own messages start "Error:"; every other of ours "error:".
            printError(message.hasPrefix("Error: ") ? "error: " + message.dropFirst(7) : message, keepingNewlines: true)
            exit(2)
        }
    }

    /// Logging and signals, once per process, before a command runs.
    private static func prepareToRun(verbose: Bool) {
        // swift-log: standard error, level info with `--verbose`, else warning; control
        // characters escaped.
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = verbose ? .info : .warning
            return EscapingLogHandler(wrapped: handler)
        }
        // Temporary output files are removed on SIGINT/SIGTERM/SIGHUP (exit 130/143/129);
        // a closed pipe on standard output becomes a write error instead of a silent death.
        PendingFileRegistry.removeOnTermination()
        signal(SIGPIPE, SIG_IGN)
    }
}
