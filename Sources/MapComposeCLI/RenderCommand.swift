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

    @Flag(help: "Fail (exit 1, no image) when any tile is corrupt or unreadable.")
    var strict = false

    @Flag(help: "Do not draw the attribution text.")
    var noAttribution = false

    @Flag(name: .shortAndLong, help: "Log what was drawn per layer to standard error.")
    var verbose = false

    mutating func run() async throws {
        let logger = Logger(label: "mapcompose")
        let viewport = try makeViewport()
        let imageFormat = try OutputFormatArgument.resolve(format, output: output)
        guard (1...100).contains(quality) else { throw CLIFailure("--quality \(quality): expected 1…100") }
        let outputs = try RenderOutputs.open(image: output, report: report)
        let mapStyle = try StyleArgument.load(style)
        if let note = BuiltInStyleNote.text(for: mapStyle, at: viewport) { printError(note) }
        let renderer = MapRenderer(style: mapStyle, options: RenderOptions(attribution: !noAttribution))
        let result: RenderResult
        do {
            result = try await renderer.render(viewport)
        } catch {
            throw CLIFailure("render failed: \(error)", exitCode: 1)
        }
        let problems = result.report.problems
        for problem in problems { printError("warning: \(problem)") }
        do {
            try outputs.report?.commit(try Self.encode(result.report))
            if strict, !problems.isEmpty {
                throw CLIFailure("--strict: \(problems.count) tile problem\(problems.count == 1 ? "" : "s"); no image written",
                                 exitCode: 1)
            }
            let data = try ImageEncoder.encode(result.image, as: imageFormat, quality: quality)
            try outputs.image.commit(data)
            RenderLog.log(result.report, output: output, to: logger)
        } catch let failure as CLIFailure {
            throw failure
        } catch {
            throw CLIFailure("\(error)", exitCode: 1)
        }
    }

    static func encode(_ report: RenderReport) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(report)
    }

    private func makeViewport() throws(CLIFailure) -> Viewport {
        let dimensions = try CoordinateArguments.size(size)
        do {
            switch (center, bbox) {
            case (.some, .some):
                throw CLIFailure("--center and --bbox cannot be used together")
            case (.some(let text), nil):
                let point = try CoordinateArguments.center(text)
                guard let zoom else { throw CLIFailure("--center needs --zoom (e.g. --zoom 12)") }
                return try Viewport(center: point, zoom: zoom, width: dimensions.width,
                                    height: dimensions.height, scale: scale)
            case (nil, .some(let text)):
                if zoom != nil { throw CLIFailure("--zoom cannot be used with --bbox (the zoom is chosen to fit)") }
                guard padding >= 0 else { throw CLIFailure("--padding \(padding): padding must be 0 or more pixels") }
                return try Viewport.fitting(try CoordinateArguments.bbox(text), width: dimensions.width,
                                            height: dimensions.height, scale: scale, padding: padding,
                                            fractionalZoom: fractionalZoom)
            case (nil, nil):
                throw CLIFailure("give --center LAT,LON with --zoom Z, or --bbox W,S,E,N")
            }
        } catch let failure as CLIFailure {
            throw failure
        } catch ViewportError.tooLarge(let width, let height) where width < 1 || height < 1 {
            throw CLIFailure("--size \(size) at --scale \(CoordinateArguments.format(scale)) would be under 1 pixel "
                             + "(\(width)x\(height)): use a larger --size or --scale")
        } catch let error as ViewportError {
            throw CLIFailure(error.description)
        } catch {
            throw CLIFailure("\(error)")
        }
    }
}
