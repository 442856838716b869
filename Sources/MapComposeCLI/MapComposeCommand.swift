import ArgumentParser
import Foundation

/// The `mapcompose` command: `render` is the default subcommand.
struct MapComposeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mapcompose",
        abstract: "Composite raster map tile layers into static map images.",
        subcommands: [RenderCommand.self, ValidateCommand.self, StylesCommand.self],
        defaultSubcommand: RenderCommand.self)
}

/// A failure the CLI reports as `error: …` lines with an exit code (1 render failed, 2 bad input).
struct CLIFailure: Error {
    let messages: [String]
    let exitCode: Int32

    init(_ message: String, exitCode: Int32 = 2) {
        messages = [message]
        self.exitCode = exitCode
    }

    init(messages: [String], exitCode: Int32) {
        self.messages = messages
        self.exitCode = exitCode
    }
}

@main
enum Main {
    static func main() async {
        do {
            var command = try MapComposeCommand.parseAsRoot()
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
}

/// Writes a line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
