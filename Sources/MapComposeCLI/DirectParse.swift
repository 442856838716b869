import ArgumentParser

extension MapComposeCommand {
    /// The arguments parsed by the one command they are for, without the others: a subcommand
    /// named first parses the rest alone, anything else parses as a render. Nil for `help` and
    /// for anything that does not parse (help flags, mistakes), which is left to the whole
    /// command tree, so that it writes the messages. Building the whole tree reflects over
    /// every subcommand's options, most of the start-up of a plain render or diff.
    static func parsedAlone(_ arguments: ArraySlice<String>) -> ParsableCommand? {
        guard let first = arguments.first, first != "help" else { return nil }
        if let named = ([RenderCommand.self] + namedSubcommands).first(where: { $0.configuration.commandName == first }) {
            return try? named.parseAsRoot(Array(arguments.dropFirst()))
        }
        return try? RenderCommand.parseAsRoot(Array(arguments))
    }
}
