import ArgumentParser
import MapComposeCore

/// `--png-compression fast|default|small|0…9`.
extension PNGCompression: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }

    public var defaultValueDescription: String { description }

    public static var allValueStrings: [String] { ["fast", "default", "small"] + (0...9).map(String.init) }
}
