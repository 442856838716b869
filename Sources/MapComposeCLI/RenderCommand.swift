import ArgumentParser
import Foundation
import Logging
import MapComposeCore

/// `mapcompose render`: one static map from a style, for a center+zoom or a bbox.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a static map (the default subcommand).")

    @Argument(help: "Output image path (.png, .jpg or .jpeg), or - for standard output (--format, default png).")
    var output: String

    @Option(help: "Style file (YAML or JSON), or the name of a built-in style.")
    var style = "default"

    @Option(parsing: .unconditional, help: "Map center as LAT,LON in degrees.")
    var center: String?

    @Option(parsing: .unconditional, help: "Zoom level (fractional allowed), with --center.")
    var zoom: Double?

    @Option(parsing: .unconditional, help: "Area to show as W,S,E,N in degrees, instead of --center/--zoom.")
    var bbox: String?

    @Option(parsing: .unconditional, help: "Pixels kept free around --bbox.")
    var padding = 0

    @Flag(help: "With --bbox, allow a fractional zoom instead of the largest whole zoom.")
    var fractionalZoom = false

    @Option(parsing: .unconditional, help: "Output size in CSS pixels, WIDTHxHEIGHT.")
    var size = "800x600"

    @Option(parsing: .unconditional, help: "Pixel scale (2 for retina output).")
    var scale = 1.0

    @Option(help: "Output format: png or jpeg (default: from the output extension).")
    var format: ImageFormat?

    @Option(parsing: .unconditional, help: "JPEG quality, 1–100.")
    var quality = 90

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
            throw CLIFailure("give --center LAT,LON with --zoom Z, or --bbox W,S,E,N")
        }
        do {
            _ = try area.viewport(width: dimensions.width, height: dimensions.height, scale: scale)
        } catch .tooSmall(let width, let height) {
            throw CLIFailure("--size \(size) at --scale \(scale.exactText) would be under 1 pixel "
                             + "(\(width.exactText)x\(height.exactText)): use a larger --size or --scale")
        } catch {
            throw CLIFailure(error.description)
        }
        let imageFormat = try OutputFormatArgument.resolve(format, output: output)
        guard (1...100).contains(quality) else { throw CLIFailure("--quality \(quality): expected 1…100") }
        guard (0...(1 << 20)).contains(tileMemory) else {
            throw CLIFailure("--tile-memory \(tileMemory): expected 0…1048576 MiB")
        }
        if output == OutputTarget.standardOutputName, report == OutputTarget.standardOutputName {
            throw CLIFailure("the image and --report cannot both go to standard output (-): write the report to a file, e.g. --report report.json")
        }
        return RenderRequest(style: try StyleArgument.load(style), area: area, width: dimensions.width,
                             height: dimensions.height, scale: scale, format: imageFormat, quality: quality,
                             output: output, reportPath: report, strict: strict, attribution: !noAttribution)
    }
}
