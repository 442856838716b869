import ArgumentParser
import Foundation
import MapComposeCommandLine
import MapComposeCore

/// `mapcompose serve`: the HTTP server is a program of its own, `mapcompose-serve`, installed
/// beside `mapcompose`, so that the tool does not load and relocate the server's libraries at
/// every start. `mapcompose serve ARGUMENTS` runs
/// `mapcompose-serve ARGUMENTS` in its place, `--help` included; this command lists it in
/// `mapcompose --help`.
struct ServeHandoffCommand: ParsableCommand {
    static let name = "serve"

    static let configuration = CommandConfiguration(
        commandName: name,
        _superCommandName: MapComposeCommand.name,
        abstract: ServeProgram.abstract)

    @Argument(parsing: .captureForPassthrough, help: "The server's options: mapcompose serve --help.")
    var arguments: [String] = []

    func run() throws {
        Self.runServer(arguments: arguments)
    }

    /// Replaces this process with the server program given `arguments`; says why and exits 2
    /// when it cannot be started.
    static func runServer(arguments: [String]) -> Never {
        let folder = ExecutableLocation.url?.deletingLastPathComponent() ?? URL(fileURLWithPath: ".")
        let program = folder.appendingPathComponent(ServeProgram.fileName).path
        var argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        execv(program, &argv)
        let reason = String(cString: strerror(errno))
        printError("error: mapcompose serve runs \(ServeProgram.fileName), which cannot be started from \(program): \(reason); "
                   + "`make build` builds it (or `swift build --product \(ServeProgram.fileName)`), `make install` installs it beside mapcompose")
        Foundation.exit(2)
    }
}
