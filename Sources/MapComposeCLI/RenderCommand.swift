import ArgumentParser
import Foundation
import Logging
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
    var style = "default"

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
    var size = "800x600"

    @Option(parsing: .unconditional, help: "Pixel scale (2 for retina output).")
    var scale = 1.0

    @Option(help: "Output format: png, jpeg, webp, pdf or svg (default: from the output extension).")
    var format: ImageFormat?

    @Option(parsing: .unconditional, help: "JPEG and WebP quality, 1–100.")
    var quality = 90

    @Flag(help: "Lossless WebP.")
    var lossless = false

    @Option(help: "PNG compression: fast (larger files, quicker), default, small, or a zlib level 0–9.")
    var pngCompression: PNGCompression = .default

    @Flag(help: "Also write a world file beside the image (.pgw, .jgw, else .wld) that places it in EPSG:3857.")
    var worldFile = false

    @Option(help: "Write a JSON report of what was drawn per layer to this file (- for standard output, when the image is not).")
    var report: String?

    @Option(parsing: .unconditional, help: "MiB of decoded tiles kept in memory for reuse (0 keeps none).")
    var tileMemory = TileStore.defaultMemoryBudget >> 20

    @Flag(help: "Fail (exit 1, no image) when any tile is corrupt or unreadable.")
    var strict = false

    @Flag(help: "Do not draw the attribution text.")
    var noAttribution = false

    @Flag(name: .shortAndLong, help: "Log what was drawn per layer to standard error.")
    var verbose = false

    @OptionGroup(title: "Remote sources")
    var cacheOptions: CacheOptions

    mutating func run() async throws {
        let logger = Logger(label: "mapcompose")
        let request = try makeRequest()
        if let note = BuiltInStyleNote.text(for: request.style, at: try request.viewport()) { printError(note) }
        let report: RenderReport
        do {
            let store = TileStore(memoryBudget: tileMemory << 20)
            report = try await StaticMapWriter(store: store, logger: logger).write(request)
        } catch {
            for diagnostic in error.report?.diagnostics ?? [] { printError("warning: \(diagnostic)") }
            switch error.kind {
            case .badRequest: throw CLIFailure(error.message, exitCode: 2)
            case .tileProblems: throw CLIFailure("--strict: \(error.message)", exitCode: 1)
            case .renderFailed: throw CLIFailure(error.message, exitCode: 1)
            }
        }
        for diagnostic in report.diagnostics { printError("warning: \(diagnostic)") }
        RenderLog.log(report, output: output, to: logger)
    }

    /// The render request the options describe. The area, the format and the output paths are
    /// checked before the style's sources are opened.
    private func makeRequest() throws(CLIFailure) -> RenderRequest {
        let dimensions = try CoordinateArguments.size(size)
        let area: RenderRequest.Area
        switch (center, bbox) {
        case (.some, .some):
            throw CLIFailure("--center and --bbox cannot be used together")
        case (.some(let text), nil):
            let point = try CoordinateArguments.center(text)
            guard let zoom else { throw CLIFailure("--center needs --zoom (e.g. --zoom 12)") }
            area = .center(point, zoom: zoom)
        case (nil, .some(let text)):
            if zoom != nil { throw CLIFailure("--zoom cannot be used with --bbox (the zoom is chosen to fit)") }
            guard padding >= 0 else { throw CLIFailure("--padding \(padding): padding must be 0 or more pixels") }
            area = .bbox(try CoordinateArguments.bbox(text), padding: padding, fractionalZoom: fractionalZoom)
        case (nil, nil):
            if zoom != nil { throw CLIFailure("--zoom needs --center LAT,LON (e.g. --center 51.5,-0.12)") }
            guard padding >= 0 else { throw CLIFailure("--padding \(padding): padding must be 0 or more pixels") }
            area = .fitOverlays(padding: padding, fractionalZoom: fractionalZoom)
        }
        let overlays = try overlayArguments.overlays()
        let fitsStyleOverlays: Bool
        if case .fitOverlays = area, overlays.isEmpty { fitsStyleOverlays = true } else { fitsStyleOverlays = false }
        if !fitsStyleOverlays { try checkArea(area, dimensions, overlays) }
        let imageFormat = try OutputFormatArgument.resolve(format, output: output)
        guard (1...100).contains(quality) else { throw CLIFailure("--quality \(quality): expected 1…100") }
        if lossless, imageFormat != .webp { throw CLIFailure("--lossless is for WebP output (name the output .webp)") }
        if pngCompression != .default, imageFormat != .png {
            throw CLIFailure("--png-compression is for PNG output (name the output .png)")
        }
        guard (0...(1 << 20)).contains(tileMemory) else {
            throw CLIFailure("--tile-memory \(tileMemory): expected 0…1048576 MiB")
        }
        if output == OutputTarget.standardOutputName, report == OutputTarget.standardOutputName {
            throw CLIFailure("the image and --report cannot both go to standard output (-): write the report to a file, e.g. --report report.json")
        }
        let request = RenderRequest(style: try StyleArgument.load(style, remote: try cacheOptions.environment()), area: area, width: dimensions.width,
                                    height: dimensions.height, scale: scale, format: imageFormat, quality: quality,
                                    output: output, reportPath: report, strict: strict, attribution: !noAttribution,
                                    overlays: overlays, lossless: lossless, worldFile: worldFile,
                                    pngCompression: pngCompression)
        if fitsStyleOverlays { try checkArea(area, dimensions, request.allOverlays) }
        return request
    }

    private var overlayArguments: OverlayArguments {
        OverlayArguments(markers: marker, paths: path, polygons: polygon, circles: circle, texts: text, files: overlay)
    }

    /// Fails with a message naming the options when the area cannot be shown at this size.
    private func checkArea(_ area: RenderRequest.Area, _ dimensions: (width: Int, height: Int),
                           _ overlays: [Overlay]) throws(CLIFailure) {
        do {
            _ = try area.viewport(width: dimensions.width, height: dimensions.height, scale: scale, overlays: overlays)
        } catch .tooSmall(let width, let height) {
            throw CLIFailure("--size \(size) at --scale \(scale.exactText) would be under 1 pixel "
                             + "(\(width.exactText)x\(height.exactText)): use a larger --size or --scale")
        } catch .nothingToFit {
            throw CLIFailure("give --center LAT,LON with --zoom Z, or --bbox W,S,E,N, or overlays (--marker, --path, "
                             + "--polygon, --circle, --text, --overlay) for the view to fit")
        } catch {
            throw CLIFailure(error.description)
        }
    }
}
