import Foundation
import Logging
import MapComposeCommandLine
import MapComposeCore

/// The render command's options as plain values, and the render they ask for. `RenderCommand`
/// parses them with ArgumentParser; `RenderSettings.quickParse` reads the common ones straight
/// from the command line (see QuickRenderParse.swift). Both run the same `run()`.
struct RenderSettings: Equatable, Sendable {
    static let defaultStyle = "default"
    static let defaultSize = "800x600"
    static let defaultScale = 1.0
    static let defaultQuality = 90
    /// None kept: one map seldom asks for a tile twice (strips hand their edge rows to their
    /// neighbours), and memory released by one strip of tiles is filled again by the next.
    static let defaultTileMemory = 0

    var output: String
    var style = defaultStyle
    /// `--basemap FILE`: sets `MAPCOMPOSE_BASEMAP` for this process (see `BasemapLocator`).
    var basemap: String?
    var center: String?
    var zoom: Double?
    var bbox: String?
    var padding = 0
    var fractionalZoom = false
    var overlays = OverlayArguments()
    var size = defaultSize
    var scale = defaultScale
    var format: ImageFormat?
    var quality = defaultQuality
    var lossless = false
    var pngCompression: PNGCompression = .default
    var worldFile = false
    var report: String?
    var tileMemory = defaultTileMemory
    var strict = false
    var deadline: String?
    var noAttribution = false
    var verbose = false
    var cache = CacheSettings()

    /// True when the map may draw text: nearly every map does (its attribution at least), where
    /// text is set up while the style loads (`TextWarmUp`). Without the attribution, only
    /// overlays given here that may draw text count; a style's own labels set text up when
    /// first drawn.
    var drawsText: Bool { !noAttribution || overlays.mayDrawText }

    /// What the text warm-up sets besides its own sample: the text and marker overlays'
    /// arguments, which hold their texts (see `TextWarmUp`).
    var textSamples: [String] { overlays.texts + overlays.markers }

    /// Renders and writes the map; failures are `CLIFailure`s with the exit code to use. Text
    /// is set up meanwhile by `textWarmUp` when it is given (already running), else on a
    /// thread of its own when the map may draw text.
    func run(textWarmUp: TextWarmUp? = nil) async throws {
        let logger = Logger(label: "mapcompose")
        let textWarmUp = textWarmUp ?? (drawsText ? TextWarmUp.start(samples: textSamples) : nil)
        defer { textWarmUp?.wait() }
        if let basemap {
            guard !basemap.isEmpty else { throw CLIFailure("--basemap needs a file (or 'none')", exitCode: 2) }
            setenv(BasemapLocator.variable, basemap, 1)
        }
        let request = try makeRequest()
        // The labels of MapLibre layers are Pango's to set: set it up beside the tiles' reading.
        let labelWarmUp = request.style.drawsMapLibreLabels ? TextWarmUp.start(pango: true) : nil
        defer { labelWarmUp?.wait() }
        for note in request.style.notes { printError("warning: \(note)") }
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
        let arguments = MapArguments(center: center, zoom: zoom, bbox: bbox, padding: padding, fractionalZoom: fractionalZoom,
                                     size: size, scale: scale, overlays: self.overlays)
        let dimensions: (width: Int, height: Int), area: RenderRequest.Area, overlays: [Overlay]
        do {
            dimensions = try arguments.dimensions(.commandLine)
            area = try arguments.area(.commandLine)
            overlays = try arguments.overlays.overlays()
        } catch {
            throw CLIFailure(error.message)
        }
        let fitsStyleOverlays: Bool
        if case .fitOverlays = area, overlays.isEmpty { fitsStyleOverlays = true } else { fitsStyleOverlays = false }
        if !fitsStyleOverlays {
            try checkArea(arguments, area, dimensions, overlays)
        }
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
        try checkOutputs(format: imageFormat)
        var seconds: Double?
        if let deadline {
            guard let value = StyleQuantity.seconds(deadline), value > 0, value <= 86_400 else {
                throw CLIFailure("--deadline '\(deadline)': expected a duration above 0 and at most 1d, such as 20s or 2m")
            }
            seconds = value
        }
        var request = RenderRequest(style: try StyleArgument.load(style, remote: try cache.environment()), area: area, width: dimensions.width,
                                    height: dimensions.height, scale: scale, format: imageFormat, quality: quality,
                                    output: output, reportPath: report, strict: strict, attribution: !noAttribution,
                                    overlays: overlays, lossless: lossless, worldFile: worldFile,
                                    pngCompression: pngCompression)
        request.deadline = seconds
        if fitsStyleOverlays { try checkArea(arguments, area, dimensions, request.allOverlays) }
        return request
    }

    /// Refuses an image, report or world file that would overwrite the style, an `--overlay`
    /// file or another of the outputs.
    private func checkOutputs(format: ImageFormat) throws(CLIFailure) {
        var files = RunFiles()
        if BuiltInStyle.named(style) == nil { files.addInput(style, role: "the style \(style)") }
        for file in overlays.files { files.addInput(file, role: "the --overlay file \(file)") }
        do {
            try files.claimOutput(output, role: "the image")
            if let report { try files.claimOutput(report, role: "the --report") }
            if worldFile { try files.claimOutput(WorldFile.path(besideImage: output, format: format), role: "the world file") }
        } catch {
            throw CLIFailure(error.description)
        }
    }

    /// Fails with a message naming the options when the area cannot be shown at this size.
    private func checkArea(_ arguments: MapArguments, _ area: RenderRequest.Area, _ dimensions: (width: Int, height: Int),
                           _ overlays: [Overlay]) throws(CLIFailure) {
        do {
            _ = try arguments.viewport(area, dimensions, overlays: overlays, .commandLine)
        } catch {
            throw CLIFailure(error.message)
        }
    }
}
