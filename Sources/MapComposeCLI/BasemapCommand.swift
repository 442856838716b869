import ArgumentParser
import Foundation
import MapComposeCommandLine
import MapComposeCore

/// `mapcompose basemap build|where`: builds the offline world basemap the built-in styles draw,
/// and says which file they use.
struct BasemapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "basemap",
        _superCommandName: MapComposeCommand.name,
        abstract: "Build the offline world basemap, or show which one the built-in styles draw (docs/basemap.md).",
        subcommands: [Build.self, Where.self])

    /// `mapcompose basemap build`: the PMTiles from the data scripts/basemap/prepare_sources.py fetched.
    struct Build: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "build",
            abstract: "Build the world basemap (PMTiles, Protomaps basemaps v4 schema) from prepared open data.")

        @Option(help: "Folder with the prepared data (scripts/basemap/prepare_sources.py --out DIR).")
        var sources: String

        @Option(help: "The archive to write (default: $XDG_DATA_HOME/mapcompose/basemap.pmtiles, else ~/.local/share/mapcompose/basemap.pmtiles).")
        var output: String?

        @Option(help: "Deepest zoom of the tiles (deeper maps draw them magnified).")
        var maxZoom = 9

        func run() throws {
            let target = output.map { URL(fileURLWithPath: $0) } ?? BasemapLocator.userFile()
            try Self.checkReplaceable(target)
            do {
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                throw CLIFailure("cannot create the folder \(target.deletingLastPathComponent().path): \(error.localizedDescription)")
            }
            let summary: BasemapBuilder.Summary
            do {
                summary = try BasemapBuilder.build(sources: URL(fileURLWithPath: sources), output: target, maxZoom: maxZoom) {
                    printError($0)
                }
            } catch {
                throw CLIFailure(error.description, exitCode: 1)
            }
            print(String(format: "wrote %@: %d tiles, %.1f MB in %.0f s", target.path, summary.tiles,
                         Double(summary.bytes) / 1e6, summary.seconds))
        }

        /// Only a missing file or an earlier PMTiles archive may be replaced.
        static func checkReplaceable(_ url: URL) throws(CLIFailure) {
            guard FileManager.default.fileExists(atPath: url.path) else { return }
            let head = (try? FileHandle(forReadingFrom: url))
                .flatMap { handle in defer { try? handle.close() }; return try? handle.read(upToCount: 7) }
            guard head == Data("PMTiles".utf8) else {
                throw CLIFailure("\(url.path) exists and is not a PMTiles archive: it is left as it is; give another --output")
            }
        }
    }

    /// `mapcompose basemap where`: the file the built-in styles draw, and where it is looked for.
    struct Where: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "where",
            abstract: "Print the world basemap the built-in styles draw, and the places searched.")

        func run() throws {
            let found: URL?
            do {
                found = try BasemapLocator.locate()
            } catch {
                throw CLIFailure(error.description)
            }
            if let found {
                print(found.path)
            } else {
                printError("no world basemap is installed: \(BasemapLocator.howToInstall); looked for:")
                for candidate in BasemapLocator.candidates() { printError("  \(candidate.path)") }
                throw CLIFailure(messages: [], exitCode: 1)
            }
        }
    }
}
