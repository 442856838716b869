import MapComposeCore

extension RenderSettings {
    /// How an option takes its value, as ArgumentParser parses it.
    private enum ValueKind {
        /// The next argument, even one starting with `-` (`parsing: .unconditional`).
        case anything
        /// The next argument unless it starts with `-` (ArgumentParser's default).
        case notAnOption
    }

    /// An option with a value: how it takes it, and where it goes (false when the value does not
    /// convert, e.g. `--zoom abc`).
    private typealias ValuedOption = (kind: ValueKind, repeatable: Bool, store: (inout RenderSettings, String) -> Bool)

    // Options and flags are looked up by `switch`, not in dictionaries: building a dictionary
    // at start-up looks up protocol conformances at run time, which costs more than the parse.

    private static func valuedOption(_ name: String) -> ValuedOption? {
        switch name {
        case "--style": (.notAnOption, false, { $0.style = $1; return true })
        case "--basemap": (.notAnOption, false, { $0.basemap = $1; return true })
        case "--center": (.anything, false, { $0.center = $1; return true })
        case "--zoom": (.anything, false, { settings, text in store(Double(text), in: &settings.zoom) })
        case "--bbox": (.anything, false, { $0.bbox = $1; return true })
        case "--padding": (.anything, false, { settings, text in store(Int(text), in: &settings.padding) })
        case "--marker": (.anything, true, { $0.overlays.markers.append($1); return true })
        case "--path": (.anything, true, { $0.overlays.paths.append($1); return true })
        case "--polygon": (.anything, true, { $0.overlays.polygons.append($1); return true })
        case "--circle": (.anything, true, { $0.overlays.circles.append($1); return true })
        case "--text": (.anything, true, { $0.overlays.texts.append($1); return true })
        case "--overlay": (.notAnOption, true, { $0.overlays.files.append($1); return true })
        case "--size": (.anything, false, { $0.size = $1; return true })
        case "--scale": (.anything, false, { settings, text in store(Double(text), in: &settings.scale) })
        case "--format": (.notAnOption, false, { settings, text in store(ImageFormat(rawValue: text), in: &settings.format) })
        case "--quality": (.anything, false, { settings, text in store(Int(text), in: &settings.quality) })
        case "--png-compression": (.notAnOption, false, { settings, text in store(PNGCompression(text), in: &settings.pngCompression) })
        case "--report": (.notAnOption, false, { $0.report = $1; return true })
        case "--tile-memory": (.anything, false, { settings, text in store(Int(text), in: &settings.tileMemory) })
        case "--deadline": (.notAnOption, false, { $0.deadline = $1; return true })
        case "--cache-dir": (.notAnOption, false, { $0.cache.cacheDir = $1; return true })
        case "--allow-env": (.notAnOption, true, { $0.cache.allowEnv.append($1); return true })
        default: nil
        }
    }

    /// A flag, by any of its names: the name that counts as seen, and what it sets.
    private static func flag(_ name: String) -> (name: String, set: (inout RenderSettings) -> Void)? {
        switch name {
        case "--fractional-zoom": ("--fractional-zoom", { $0.fractionalZoom = true })
        case "--lossless": ("--lossless", { $0.lossless = true })
        case "--world-file": ("--world-file", { $0.worldFile = true })
        case "--strict": ("--strict", { $0.strict = true })
        case "--no-attribution": ("--no-attribution", { $0.noAttribution = true })
        case "--verbose", "-v": ("--verbose", { $0.verbose = true })
        case "--no-cache": ("--no-cache", { $0.cache.noCache = true })
        case "--offline": ("--offline", { $0.cache.offline = true })
        default: nil
        }
    }

    private static func store<Value>(_ value: Value?, in field: inout Value) -> Bool {
        guard let value else { return false }
        field = value
        return true
    }

    private static func store<Value>(_ value: Value?, in field: inout Value?) -> Bool {
        guard let value else { return false }
        field = value
        return true
    }

    /// The settings of a plain render (`[render] OUTPUT` with render options, each at most
    /// once but the repeatable overlays), read without ArgumentParser, whose reflection over the
    /// command's options costs several ms of every start. Nil for anything else: help, another
    /// subcommand, an unknown or repeated option, a value that does not convert, a second
    /// output; ArgumentParser then parses the arguments and writes any message. What this
    /// accepts, it reads exactly as ArgumentParser does (tested against it).
    static func quickParse(_ arguments: ArraySlice<String>, subcommands: [String]) -> RenderSettings? {
        var rest = arguments
        if rest.first == "render" { rest = rest.dropFirst() } else if let first = rest.first, first == "help" || subcommands.contains(first) { return nil }
        var settings = RenderSettings(output: "")
        var output: String?
        var seen: Set<String> = []
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("-"), argument != "-" else {
                guard output == nil else { return nil }
                output = argument
                continue
            }
            if let flag = flag(argument) {
                guard seen.insert(flag.name).inserted else { return nil }
                flag.set(&settings)
                continue
            }
            let name: String, value: String
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            } else {
                name = argument
                guard let next = rest.popFirst() else { return nil }
                value = next
                guard let option = valuedOption(name), option.kind == .anything || !value.hasPrefix("-") else { return nil }
            }
            guard let option = valuedOption(name), option.repeatable || seen.insert(name).inserted,
                  option.store(&settings, value) else { return nil }
        }
        guard let output else { return nil }
        settings.output = output
        return settings
    }
}
