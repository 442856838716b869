import ArgumentParser

extension MapComposeCommand {
    /// The arguments parsed by the one command they are for, without the others: a subcommand
    /// named first parses the rest alone, anything else parses as a render. Nil for `help`, for
    /// help flags and for anything that does not parse (mistakes), which is left to the whole
    /// command tree, so that it writes the messages. Building the whole tree reflects over
    /// every subcommand's options, most of the start-up of a plain render or diff.
    static func parsedAlone(_ arguments: ArraySlice<String>) -> ParsableCommand? {
        guard let first = arguments.first, first != "help" else { return nil }
        let named = ([RenderCommand.self] + namedSubcommands).first { $0.configuration.commandName == first }
        let command: ParsableCommand.Type = named ?? RenderCommand.self
        // A help request parses into ArgumentParser's own help command: not the one asked for.
        guard let parsed = try? command.parseAsRoot(Array(named == nil ? arguments : arguments.dropFirst())),
              type(of: parsed) == command else { return nil }
        return parsed
    }
}
