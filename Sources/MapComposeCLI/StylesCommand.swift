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
        let basemap = try? BasemapLocator.locate()
        for style in BuiltInStyle.all {
            let data: String
            if style.basemapText != nil, let basemap {
                data = "world basemap \(basemap.path)"
            } else if style.basemapText != nil {
                data = "\(style.detail) until the world basemap is installed"
            } else {
                data = style.detail
            }
            print(style.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + "\(style.summary) (\(data); offline)")
        }
    }
}
