import Foundation

/// A style compiled into the binary, usable from any working directory with no files on disk.
public struct BuiltInStyle: Sendable {
    public let name: String
    public let summary: String
    /// What the style's data is, e.g. `1:110m data`.
    public let dataDescription: String
    /// The closest zoom its data is detailed enough for; deeper renders show coarse shapes.
    public let detailMaxZoom: Int
    /// The style's YAML text.
    public let text: String
    /// The text of the files the style names, by the relative path it uses. Kept as the
    /// embedded strings: no copy of the data is made until a render reads it.
    public let files: [String: String]
    /// The GeoJSON files among them stored ready to read, base64 (see `PreparedGeoJSON`).
    let preparedFiles: [String: String]

    /// Every built-in style.
    public static let all: [BuiltInStyle] = [
        BuiltInStyle(
            name: "default",
            summary: "Natural Earth countries, borders and capitals over an ocean",
            dataDescription: "1:110m data",
            detailMaxZoom: 6,
            text: EmbeddedStyleFiles.defaultStyle,
            files: [
                "data/ne_110m_countries.geojson": EmbeddedStyleFiles.countries,
                "data/ne_110m_cities.geojson": EmbeddedStyleFiles.capitals,
            ],
            preparedFiles: [
                "data/ne_110m_countries.geojson": EmbeddedStyleFiles.countriesPrepared,
                "data/ne_110m_cities.geojson": EmbeddedStyleFiles.capitalsPrepared,
            ])
    ]

    /// How far the data goes, e.g. `1:110m data, detailed to about zoom 6`.
    public var detail: String { "\(dataDescription), detailed to about zoom \(detailMaxZoom)" }

    /// The built-in style called `name`, if any.
    public static func named(_ name: String) -> BuiltInStyle? {
        all.first { $0.name == name }
    }
}
