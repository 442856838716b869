import Foundation

/// A style compiled into the binary, usable from any working directory with no files on disk.
public struct BuiltInStyle: Sendable {
    public let name: String
    public let summary: String
    /// The style's YAML text.
    public let text: String
    /// Files the style names, by the relative path it uses.
    public let files: [String: Data]

    /// Every built-in style.
    public static let all: [BuiltInStyle] = [
        BuiltInStyle(
            name: "default",
            summary: "Natural Earth countries, borders and capitals over an ocean (zoom 0–12, offline)",
            text: EmbeddedStyleFiles.defaultStyle,
            files: [
                "data/ne_110m_countries.geojson": Data(EmbeddedStyleFiles.countries.utf8),
                "data/ne_110m_cities.geojson": Data(EmbeddedStyleFiles.capitals.utf8),
            ])
    ]

    /// The built-in style called `name`, if any.
    public static func named(_ name: String) -> BuiltInStyle? {
        all.first { $0.name == name }
    }
}
