import ArgumentParser
import Foundation
import Logging
import MapComposeCommandLine
import MapComposeCore
import MapComposeServer

/// `mapcompose serve` (the program `mapcompose-serve`): serves static maps, XYZ tiles and
/// TileJSON of the configured styles over HTTP until SIGTERM (see docs/serve.md).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        _superCommandName: "mapcompose",
        abstract: ServeProgram.abstract)

    @Option(help: "The server's configuration file (serve.yaml).")
    var config: String?

    @Option(name: .customLong("style"), help: "A style to serve as NAME=FILE (repeatable; FILE may name a built-in style).")
    var styles: [String] = []

    @Option(help: "Address to listen on (default: the configuration's host, else 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on; 0 picks a free one (default: the configuration's port, else 8080).")
    var port: Int?

    @OptionGroup(title: "Remote sources")
    var cache: CacheOptions

    mutating func run() async throws {
        var configuration = ServeConfiguration()
        do {
            if let config { configuration = try ServeConfiguration.load(file: config) }
            for style in styles { try configuration.setStyle(style) }
        } catch {
            throw CLIFailure(error.description)
        }
        if let host { configuration.host = host }
        if let port {
            guard (0...65535).contains(port) else { throw CLIFailure("--port \(port): expected 0…65535") }
            configuration.port = port
        }
        guard !configuration.styles.isEmpty else {
            throw CLIFailure("no style to serve: give --style NAME=FILE or a --config with styles:")
        }
        var settings = cache.settings
        if settings.cacheDir == nil { settings.cacheDir = configuration.cacheDir }
        let remote = try settings.environment()
        let server = MapServer(configuration: configuration, remote: remote, logger: Logger(label: "mapcompose.serve"))
        do {
            try await server.run { host, port in
                FileHandle.standardOutput.write(Data("listening on http://\(host):\(port)\n".utf8))
            }
        } catch {
            throw CLIFailure("serve: \(error)", exitCode: 1)
        }
    }
}
