import MapComposeCore

extension RenderSettings {
    /// How an option takes its value, as ArgumentParser parses it.
    private enum ValueKind: Sendable {
        /// The next argument, even one starting with `-` (`parsing: .unconditional`).
        case anything
        /// The next argument unless it starts with `-` (ArgumentParser's default).
        case notAnOption
    }

    /// An option with a value: how it takes it, and where it goes (false when the value does not
    /// convert, e.g. `--zoom abc`).
    private typealias ValuedOption = (kind: ValueKind, repeatable: Bool, store: @Sendable (inout RenderSettings, String) -> Bool)

    private static let valuedOptions: [String: ValuedOption] = [
        "--style": (.notAnOption, false, { $0.style = $1; return true }),
        "--center": (.anything, false, { $0.center = $1; return true }),
        "--zoom": (.anything, false, { settings, text in store(Double(text), in: &settings.zoom) }),
        "--bbox": (.anything, false, { $0.bbox = $1; return true }),
        "--padding": (.anything, false, { settings, text in store(Int(text), in: &settings.padding) }),
        "--marker": (.anything, true, { $0.overlays.markers.append($1); return true }),
        "--path": (.anything, true, { $0.overlays.paths.append($1); return true }),
        "--polygon": (.anything, true, { $0.overlays.polygons.append($1); return true }),
        "--circle": (.anything, true, { $0.overlays.circles.append($1); return true }),
        "--text": (.anything, true, { $0.overlays.texts.append($1); return true }),
        "--overlay": (.notAnOption, true, { $0.overlays.files.append($1); return true }),
        "--size": (.anything, false, { $0.size = $1; return true }),
        "--scale": (.anything, false, { settings, text in store(Double(text), in: &settings.scale) }),
        "--format": (.notAnOption, false, { settings, text in store(ImageFormat(rawValue: text), in: &settings.format) }),
        "--quality": (.anything, false, { settings, text in store(Int(text), in: &settings.quality) }),
        "--png-compression": (.notAnOption, false, { settings, text in store(PNGCompression(text), in: &settings.pngCompression) }),
        "--report": (.notAnOption, false, { $0.report = $1; return true }),
        "--tile-memory": (.anything, false, { settings, text in store(Int(text), in: &settings.tileMemory) }),
        "--cache-dir": (.notAnOption, false, { $0.cache.cacheDir = $1; return true }),
    ]

    /// Flags, by every name they have: the name that counts as seen, and what they set.
    private static let flags: [String: (name: String, set: @Sendable (inout RenderSettings) -> Void)] = [
        "--fractional-zoom": ("--fractional-zoom", { $0.fractionalZoom = true }),
        "--lossless": ("--lossless", { $0.lossless = true }),
        "--world-file": ("--world-file", { $0.worldFile = true }),
        "--strict": ("--strict", { $0.strict = true }),
        "--no-attribution": ("--no-attribution", { $0.noAttribution = true }),
        "--verbose": ("--verbose", { $0.verbose = true }),
        "-v": ("--verbose", { $0.verbose = true }),
        "--no-cache": ("--no-cache", { $0.cache.noCache = true }),
        "--offline": ("--offline", { $0.cache.offline = true }),
    ]

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
    static func quickParse(_ arguments: ArraySlice<String>, subcommands: Set<String>) -> RenderSettings? {
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
            if let flag = flags[argument] {
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
                guard let option = valuedOptions[name], option.kind == .anything || !value.hasPrefix("-") else { return nil }
            }
            guard let option = valuedOptions[name], option.repeatable || seen.insert(name).inserted,
                  option.store(&settings, value) else { return nil }
        }
        guard let output else { return nil }
        settings.output = output
        return settings
    }
}
