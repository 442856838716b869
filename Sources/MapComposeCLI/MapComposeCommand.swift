import ArgumentParser
import Foundation
import Logging
import MapComposeCommandLine
import MapComposeCore

/// The `mapcompose` command: `render` is the default subcommand.
struct MapComposeCommand: AsyncParsableCommand {
    /// Every subcommand but the default one, by name.
    static let namedSubcommands: [ParsableCommand.Type] = [
        BatchCommand.self, DiffCommand.self, CheckCommand.self, ValidateCommand.self, StylesCommand.self, CacheCommand.self,
        ServeHandoffCommand.self, BasemapCommand.self,
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

    /// Nothing here uses the main queue or the main actor, so the main thread runs no run loop
    /// (see `CommandProcess.run`).
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
        // `serve`, help included, is the server program's (see `ServeHandoffCommand`).
        if CommandLine.arguments.count > 1, CommandLine.arguments[1] == ServeHandoffCommand.name {
            ServeHandoffCommand.runServer(arguments: Array(CommandLine.arguments.dropFirst(2)))
        }
        // A plain render skips ArgumentParser (see `RenderSettings.quickParse`); this thread,
        // which otherwise only waits for signals, sets its text up meanwhile.
        if let settings = RenderSettings.quickParse(CommandLine.arguments.dropFirst(),
                                                    subcommands: MapComposeCommand.namedSubcommandNames) {
            PixelMemory.startHugePageProbe()
            let textWarmUp = settings.drawsText ? TextWarmUp(samples: settings.textSamples) : nil
            CommandProcess.run(meanwhile: { textWarmUp?.run() }) { await render(settings, textWarmUp: textWarmUp) }
        }
        CommandProcess.run { await runAndExit() }
    }

    /// Runs a plain render and ends the process with its exit code.
    private nonisolated static func render(_ settings: RenderSettings, textWarmUp: TextWarmUp?) async -> Never {
        do {
            CommandProcess.prepare(verbose: settings.verbose)
            try await settings.run(textWarmUp: textWarmUp)
            CommandProcess.finish()
        } catch {
            CommandProcess.exit(reporting: error, of: MapComposeCommand.self)
        }
    }

    /// Parses the arguments, runs the command and ends the process with its exit code.
    private nonisolated static func runAndExit() async -> Never {
        do {
            let command: ParsableCommand
            if let alone = MapComposeCommand.parsedAlone(CommandLine.arguments.dropFirst()) {
                command = alone
            } else {
                command = try MapComposeCommand.parseAsRoot()
            }
            try await CommandProcess.execute(command, verbose: (command as? RenderCommand)?.verbose ?? false)
        } catch {
            CommandProcess.exit(reporting: error, of: MapComposeCommand.self)
        }
    }
}
