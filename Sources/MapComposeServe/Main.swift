import ArgumentParser
import Foundation
import MapComposeCommandLine

/// `mapcompose-serve`, the program `mapcompose serve` runs (see docs/serve.md).
@main
enum Main {
    static func main() {
        CommandProcess.run {
            do {
                var command = try ServeCommand.parseAsRoot()
                CommandProcess.prepare(verbose: true)
                if var asyncCommand = command as? AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
                exit(0)
            } catch {
                CommandProcess.exit(reporting: error, of: ServeCommand.self)
            }
        }
    }
}
