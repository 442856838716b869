import Foundation
import MapComposeCommandLine
import MapComposeCore

/// Loads the style a user named (a built-in name or a file), with messages that say what to type.
enum StyleArgument {
    static func load(_ nameOrPath: String, remote: RemoteEnvironment = .standard) throws(CLIFailure) -> MapStyle {
        guard !nameOrPath.isEmpty else {
            throw CLIFailure("the style name is empty: give a style file or the name of a built-in style (`mapcompose styles` lists them)")
        }
        if BuiltInStyle.named(nameOrPath) == nil, !FileManager.default.fileExists(atPath: nameOrPath) {
            throw CLIFailure("\(nameOrPath): no such style file, and no built-in style has that name (`mapcompose styles` lists them)")
        }
        do {
            return try StyleLoader.load(nameOrPath: nameOrPath, remote: remote)
        } catch {
            throw CLIFailure(messages: error.lines, exitCode: 2)
        }
    }
}
