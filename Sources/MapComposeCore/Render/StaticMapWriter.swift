import Foundation
import Logging

/// Renders a `RenderRequest`, encodes it and writes image and report atomically: output files
/// are created up front (an unwritable path fails before any work) and renamed into place only
/// when complete, so a failure never leaves a partial image or a report claiming success.
/// `-` names standard output (for the image or the report, not both).
/// The CLI and the batch command both go through `write`.
public struct StaticMapWriter: Sendable {
    public let store: TileStore
    let logger: Logger

    public init(store: TileStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    @discardableResult
    public func write(_ request: RenderRequest) async throws(RenderFailure) -> RenderReport {
        func failure(_ kind: RenderFailure.Kind, _ message: String, _ report: RenderReport? = nil) -> RenderFailure {
            RenderFailure(kind: kind, message: message, report: report)
        }
        let viewport = try Self.checkedViewport(request)
        if request.output == OutputTarget.standardOutputName, request.reportPath == OutputTarget.standardOutputName {
            throw failure(.badRequest, "the image and the report cannot both go to standard output (-)")
        }
        if request.worldFile, request.output == OutputTarget.standardOutputName {
            throw failure(.badRequest, "a world file needs an image file, not standard output (-)")
        }
        let imageFile: OutputTarget, reportFile: OutputTarget?, worldFile: OutputTarget?
        do {
            imageFile = try OutputTarget(path: request.output)
            reportFile = try request.reportPath.map { path throws(OutputError) in try OutputTarget(path: path) }
            worldFile = try request.worldFile ? OutputTarget(path: WorldFile.path(besideImage: request.output,
                                                                                  format: request.format)) : nil
        } catch {
            throw failure(.badRequest, error.description)
        }
        let rendered = await renderChecked(request, viewport)
        var report: RenderReport
        let pixels: MapRenderer.MapPixels, renderer: MapRenderer
        switch rendered {
        case .success(let value): (pixels, report, renderer) = value
        case .failure(let error):
            guard var failed = error.report else { throw error }
            failed.status = .failed
            failed.error = error.message
            imageFile.discard()
            worldFile?.discard()
            try? reportFile?.commit(Self.encode(failed))
            throw failure(error.kind, error.message, failed)
        }
        func fail(_ kind: RenderFailure.Kind, _ message: String) -> RenderFailure {
            report.status = .failed
            report.error = message
            imageFile.discard()
            worldFile?.discard()
            try? reportFile?.commit(Self.encode(report))
            return failure(kind, message, report)
        }
        do {
            try imageFile.commit(try Self.encode(pixels, request, viewport: viewport, renderer: renderer))
            try worldFile?.commit(Data(WorldFile.text(for: viewport).utf8))
        } catch let error as OutputError {
            throw fail(.renderFailed, error.description)
        } catch {
            throw fail(.renderFailed, "\(error)")
        }
        do {
            try reportFile?.commit(Self.encode(report))
        } catch {
            throw failure(.renderFailed, error.description, report)
        }
        return report
    }

    /// Renders and encodes the request in memory, writing nothing (`output` and the other paths
    /// are not used): what `serve` answers with. The same checks and pixels as `write`.
    public func render(_ request: RenderRequest) async throws(RenderFailure) -> (image: Data, report: RenderReport) {
        let viewport = try Self.checkedViewport(request)
        let (pixels, report, renderer) = try await renderChecked(request, viewport).get()
        do {
            return (try Self.encode(pixels, request, viewport: viewport, renderer: renderer), report)
        } catch {
            throw RenderFailure(kind: .renderFailed, message: "\(error)", report: report)
        }
    }

    /// The request's viewport, after the checks that need no work: quality, and WebP's size.
    private static func checkedViewport(_ request: RenderRequest) throws(RenderFailure) -> Viewport {
        func failure(_ message: String) -> RenderFailure { RenderFailure(kind: .badRequest, message: message, report: nil) }
        let viewport: Viewport
        do {
            viewport = try request.viewport()
        } catch {
            throw failure(error.description)
        }
        guard (1...100).contains(request.quality) else {
            throw failure("quality \(request.quality) is outside 1…100")
        }
        // Known before any work: WebP holds at most 16383 pixels a side.
        if request.format == .webp, max(viewport.deviceWidth, viewport.deviceHeight) > 16383 {
            throw failure("a WebP image is at most 16383 pixels a side; this one would be "
                          + "\(viewport.deviceWidth)x\(viewport.deviceHeight) (use PNG or JPEG, or a smaller --size or --scale)")
        }
        return viewport
    }

    /// Renders on the CPU pool within the request's deadline; fails (with the report) when
    /// `strict` finds tile problems or no tile of any layer could be had.
    private func renderChecked(_ request: RenderRequest, _ viewport: Viewport) async
        -> Result<(MapRenderer.MapPixels, RenderReport, MapRenderer), RenderFailure> {
        let renderer = MapRenderer(style: request.style, options: RenderOptions(attribution: request.attribution),
                                   store: store, overlays: request.overlays, logger: logger)
        let deadline = request.effectiveDeadline
        let rendered = await CPUPool.shared.occupying {
            await RenderDeadline.$current.withValue(.now + .milliseconds(Int64(deadline * 1000))) {
                do throws(CairoError) {
                    let result = try await renderer.renderPixels(viewport, decorated: !request.format.isVector)
                    return Result<(pixels: MapRenderer.MapPixels, report: RenderReport, late: Bool), CairoError>
                        .success((result.pixels, result.report, RenderDeadline.hasPassed))
                } catch {
                    return .failure(error)
                }
            }
        }
        let result: (pixels: MapRenderer.MapPixels, report: RenderReport, late: Bool)
        switch rendered {
        case .success(let value): result = value
        case .failure(let error):
            return .failure(RenderFailure(kind: .renderFailed, message: "render failed: \(error)", report: nil))
        }
        var report = result.report
        let missing = report.layers.reduce(0) { $0 + $1.tilesMissing }
        if result.late, missing > 0 {
            report.diagnostics.append(.deadlinePassed(seconds: deadline, missing: missing))
        }
        let problems = report.problems
        if request.strict, !problems.isEmpty {
            return .failure(RenderFailure(kind: .tileProblems, message: "\(problems.count) tile problem\(problems.count == 1 ? "" : "s"); no image written",
                                          report: report))
        }
        if report.noTileCouldBeHad {
            return .failure(RenderFailure(kind: .renderFailed,
                                          message: "no tile of any layer could be had (\(problems[0])); no image written", report: report))
        }
        return .success((result.pixels, report, renderer))
    }

    /// The map in the request's format: PDF and SVG pages get the overlays and attribution as
    /// vectors; a PNG carries the map's EPSG:3857 bbox in `tEXt` chunks.
    static func encode(_ pixels: MapRenderer.MapPixels, _ request: RenderRequest, viewport: Viewport,
                       renderer: MapRenderer) throws(ImageEncodeError) -> Data {
        let image = pixels.image
        guard request.format == .png else {
            if request.format.isVector {
                return try VectorEncoder.encode(image, as: request.format, scale: viewport.scale) { renderer.decorate($0, viewport) }
            }
            return try ImageEncoder.encode(image, as: request.format, quality: request.quality, lossless: request.lossless)
        }
        let e = viewport.extent
        // One interpolation, not `joined(separator:)`: the generic join looks up the Element
        // witness at run time, scanning every conformance record of the binary.
        let text = [("crs", "EPSG:3857"), ("bbox3857", "\(e.minX),\(e.minY),\(e.maxX),\(e.maxY)")]
        return try ImageEncoder.png(image, compression: request.pngCompression, text: text)
    }

    /// The report as pretty-printed JSON with sorted keys.
    public static func encode(_ report: RenderReport) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Every value is a plain string, number or array: encoding cannot fail.
        return (try? encoder.encode(report)) ?? Data()
    }
}
