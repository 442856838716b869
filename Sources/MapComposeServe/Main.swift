import ArgumentParser
import Foundation
import MapComposeCommandLine

/// `mapcompose-serve`, the program `mapcompose serve` runs (see docs/serve.md).
@main
enum Main {
    static func main() {
        CommandProcess.run {
            do {
                // Its log at level info: a line for each request and each style loaded.
                try await CommandProcess.execute(try ServeCommand.parseAsRoot(), verbose: true)
            } catch {
                CommandProcess.exit(reporting: error, of: ServeCommand.self)
            }
        }
    }
}
