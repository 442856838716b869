import ArgumentParser

extension RenderCommand {
    /// The arguments parsed as a render command alone, when they are one: the first argument
    /// names no other subcommand (nor `help`) and they parse without error. Anything else
    /// (help, a subcommand, a mistake) is nil, left to the whole command tree, which also writes
    /// the messages. Parsing the render command alone spares reflecting over every other
    /// subcommand's options, most of the start-up of a plain render.
    static func parsedAlone(_ arguments: ArraySlice<String>) -> RenderCommand? {
        if let first = arguments.first {
            let names = MapComposeCommand.namedSubcommands.compactMap { $0.configuration.commandName }
            if first == "help" || first == configuration.commandName || names.contains(first) { return nil }
        }
        return try? parse(Array(arguments))
    }
}
