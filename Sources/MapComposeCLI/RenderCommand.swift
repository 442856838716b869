import ArgumentParser
import Foundation
import MapComposeCommandLine
import MapComposeCore

/// `mapcompose render`: one static map from a style, for a center+zoom or a bbox.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        _superCommandName: MapComposeCommand.name,
        abstract: "Render a static map (the default subcommand).")

    @Argument(help: "Output path (.png, .jpg, .webp, .pdf or .svg), or - for standard output (--format, default png).")
    var output: String

    @Option(help: "Style file (YAML or JSON), or the name of a built-in style.")
    var style = RenderSettings.defaultStyle

    @Option(help: "The world basemap the built-in styles draw: a Protomaps-schema PMTiles (or MBTiles) file; 'none' for the 1:110m data (default: MAPCOMPOSE_BASEMAP, else the installed one, see docs/basemap.md).")
    var basemap: String?

    @Option(parsing: .unconditional, help: "Map center as LAT,LON in degrees.")
    var center: String?

    @Option(parsing: .unconditional, help: "Zoom level (fractional allowed), with --center.")
    var zoom: Double?

    @Option(parsing: .unconditional, help: "Area to show as W,S,E,N in degrees, instead of --center/--zoom.")
    var bbox: String?

    @Option(parsing: .unconditional, help: "Pixels kept free around --bbox, or around the overlays when the view fits them.")
    var padding = 0

    @Flag(help: "With --bbox or a view fitted to the overlays, allow a fractional zoom instead of the largest whole zoom.")
    var fractionalZoom = false

    @Option(parsing: .unconditionalSingleValue, help: "A marker: LAT,LON[,COLOR][,LABEL][;size=small|medium|large][;symbol=pin|circle][;icon=FILE.png][;anchor=X,Y] (repeatable).")
    var marker: [String] = []

    @Option(parsing: .unconditionalSingleValue, help: "A line: \"LAT,LON;LAT,LON;…\" or \"enc=POLYLINE\", then ;color=C ;width=PX ;opacity=O ;geodesic=true (repeatable).")
    var path: [String] = []

    @Option(parsing: .unconditionalSingleValue, help: "An area: \"LAT,LON;LAT,LON;LAT,LON;…\" or \"enc=POLYLINE\", then ;fill=C|none ;stroke=C|none ;width=PX ;geodesic=true (repeatable).")
    var polygon: [String] = []

    @Option(parsing: .unconditionalSingleValue, help: "A circle on the ground: LAT,LON,RADIUS_M, then ;fill=C|none ;stroke=C|none ;width=PX (repeatable).")
    var circle: [String] = []

    @Option(parsing: .unconditionalSingleValue, help: "Text centred on a point: LAT,LON,TEXT, then ;color=C ;size=PX ;halo=C|none (repeatable).")
    var text: [String] = []

    @Option(help: "A GeoJSON file drawn with simplestyle properties (marker-color, stroke, fill, …) (repeatable).")
    var overlay: [String] = []

    @Option(parsing: .unconditional, help: "Output size in CSS pixels, WIDTHxHEIGHT.")
    var size = RenderSettings.defaultSize

    @Option(parsing: .unconditional, help: "Pixel scale (2 for retina output).")
    var scale = RenderSettings.defaultScale

    @Option(help: "Output format: png, jpeg, webp, pdf or svg (default: from the output extension).")
    var format: ImageFormat?

    @Option(parsing: .unconditional, help: "JPEG and WebP quality, 1–100.")
    var quality = RenderSettings.defaultQuality

    @Flag(help: "Lossless WebP.")
    var lossless = false

    @Option(help: "PNG compression: fast (larger files, quicker), default, small, or a zlib level 0–9.")
    var pngCompression: PNGCompression = .default

    @Flag(help: "Also write a world file beside the image (.pgw, .jgw, else .wld) that places it in EPSG:3857.")
    var worldFile = false

    @Option(help: "Write a JSON report of what was drawn per layer to this file (- for standard output, when the image is not).")
    var report: String?

    @Option(parsing: .unconditional, help: "MiB of decoded tiles kept in memory for reuse within the map (0, the default, keeps none).")
    var tileMemory = RenderSettings.defaultTileMemory

    @Flag(help: "Fail (exit 1, no image) when any tile is corrupt or unreadable.")
    var strict = false

    @Option(help: "How long to wait for tiles (e.g. 20s, 2m; default: the style's deadline, else 60s); then missing tiles are drawn by fallback and the map is written with a warning.")
    var deadline: String?

    @Flag(help: "Do not draw the attribution text.")
    var noAttribution = false

    @Flag(name: .shortAndLong, help: "Log what was drawn per layer to standard error.")
    var verbose = false

    @OptionGroup(title: "Remote sources")
    var cacheOptions: CacheOptions

    /// The options as plain values.
    var settings: RenderSettings {
        RenderSettings(output: output, style: style, basemap: basemap, center: center, zoom: zoom, bbox: bbox, padding: padding,
                       fractionalZoom: fractionalZoom,
                       overlays: OverlayArguments(markers: marker, paths: path, polygons: polygon, circles: circle,
                                                  texts: text, files: overlay),
                       size: size, scale: scale, format: format, quality: quality, lossless: lossless,
                       pngCompression: pngCompression, worldFile: worldFile, report: report, tileMemory: tileMemory,
                       strict: strict, deadline: deadline, noAttribution: noAttribution, verbose: verbose, cache: cacheOptions.settings)
    }

    func run() async throws {
        try await settings.run()
    }
}
