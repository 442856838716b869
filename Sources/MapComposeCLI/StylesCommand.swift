import ArgumentParser
import MapComposeCore

/// `mapcompose styles`: lists the styles built into the binary.
struct StylesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "styles",
        _superCommandName: MapComposeCommand.name,
        abstract: "List the built-in styles (usable as --style NAME from any folder).")

    func run() {
        let width = BuiltInStyle.all.map(\.name.count).max() ?? 0
        for style in BuiltInStyle.all {
            print(style.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + "\(style.summary) (\(style.detail); offline)")
        }
    }
}
