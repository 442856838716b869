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
    /// The GeoJSON files among them stored ready to read (see `PreparedGeoJSON`), each decoded
    /// when first asked for.
    let preparedFiles: [String: @Sendable () -> Data]
    /// The MapLibre style drawn instead when the world basemap is installed (its source is
    /// `mapcompose://basemap`, see `BasemapLocator`); nil for styles without one.
    public let basemapText: String?

    /// Every built-in style.
    public static let all: [BuiltInStyle] = [
        BuiltInStyle(
            name: "default",
            summary: "the world basemap: land, water, rivers, borders and places (else Natural Earth countries and capitals)",
            dataDescription: "1:110m data",
            detailMaxZoom: 6,
            text: EmbeddedStyleFiles.defaultStyle,
            files: naturalEarthFiles,
            preparedFiles: naturalEarthPrepared,
            basemapText: EmbeddedStyleFiles.defaultBasemapStyle),
        BuiltInStyle(
            name: "default-dark",
            summary: "the default style in dark colours",
            dataDescription: "1:110m data in the default colours",
            detailMaxZoom: 6,
            text: EmbeddedStyleFiles.defaultStyle,
            files: naturalEarthFiles,
            preparedFiles: naturalEarthPrepared,
            basemapText: EmbeddedStyleFiles.defaultDarkBasemapStyle),
    ]

    private static let naturalEarthFiles = [
        "data/ne_110m_countries.geojson": EmbeddedStyleFiles.countries,
        "data/ne_110m_cities.geojson": EmbeddedStyleFiles.capitals,
    ]
    private static let naturalEarthPrepared: [String: @Sendable () -> Data] = [
        "data/ne_110m_countries.geojson": { PreparedNaturalEarth.countries },
        "data/ne_110m_cities.geojson": { PreparedNaturalEarth.capitals },
    ]

    /// This style as drawn over the world basemap: detailed to zoom 15.
    var overBasemap: BuiltInStyle {
        BuiltInStyle(name: name, summary: summary, dataDescription: "the world basemap", detailMaxZoom: 15,
                     text: basemapText ?? text, files: [:], preparedFiles: [:], basemapText: basemapText)
    }

    /// How far the data goes, e.g. `1:110m data, detailed to about zoom 6`.
    public var detail: String { "\(dataDescription), detailed to about zoom \(detailMaxZoom)" }

    /// The built-in style called `name`, if any.
    public static func named(_ name: String) -> BuiltInStyle? {
        all.first { $0.name == name }
    }
}

/// The built-in style's prepared files, decoded from base64 once, when a render first reads
/// them (not when a style is looked up). Data that does not decode (a test checks that it
/// does) leaves the text to be parsed.
private enum PreparedNaturalEarth {
    static let countries = Data(base64Encoded: EmbeddedStyleFiles.countriesPrepared) ?? Data()
    static let capitals = Data(base64Encoded: EmbeddedStyleFiles.capitalsPrepared) ?? Data()
}
