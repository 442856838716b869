import ArgumentParser
import Foundation
import MapComposeCore

/// `mapcompose diff A.png B.png`: pixelmatch's count of differing pixels; exit 0 within
/// `--allowed`, 1 beyond, 2 for unreadable files or different sizes.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        _superCommandName: MapComposeCommand.name,
        abstract: "Compare two PNG images as pixelmatch does; exit 0 within --allowed, 1 beyond, 2 if they cannot be compared.")

    @Argument(help: "The first PNG (the diff image fades this one).")
    var first: String

    @Argument(help: "The second PNG, of the same size.")
    var second: String

    @Option(parsing: .unconditional, help: "Colour difference threshold, 0 (exact) to 1 (anything passes).")
    var threshold = 0.1

    @Option(name: .customLong("diff"), help: "Write the diff image here (PNG): red differs, yellow anti-aliasing, the first image faded.")
    var diffOutput: String?

    @Flag(name: .customLong("include-aa"), help: "Count anti-aliased pixels as differences too.")
    var includeAntialiasing = false

    @Option(parsing: .unconditional, help: "Largest share of differing pixels (0…1) that still exits 0.")
    var allowed = 0.0

    mutating func run() async throws {
        guard threshold.isFinite, (0...1).contains(threshold) else {
            throw CLIFailure("--threshold \(threshold): expected a number from 0 to 1, e.g. 0.1")
        }
        guard allowed.isFinite, (0...1).contains(allowed) else {
            throw CLIFailure("--allowed \(allowed): expected a share of pixels from 0 to 1, e.g. 0.001 for 0.1%")
        }
        let diffTarget: OutputTarget?
        do {
            var files = RunFiles()
            files.addInput(first, role: "the first image \(first)")
            files.addInput(second, role: "the second image \(second)")
            try diffOutput.map { path throws(OutputError) in try files.claimOutput(path, role: "the diff image") }
            diffTarget = try diffOutput.map { path throws(OutputError) in try OutputTarget(path: path) }
        } catch {
            throw CLIFailure("--diff: \(error)")
        }
        // The two files decode at once, on two cores.
        async let one = Self.read(first)
        async let two = Self.read(second)
        let (a, b) = try await (one, two)
        guard a.width == b.width, a.height == b.height else {
            diffTarget?.discard()
            throw CLIFailure("\(first) is \(a.width)x\(a.height) but \(second) is \(b.width)x\(b.height): only images of the same size compare")
        }
        let result: ImageDiffResult
        do {
            result = try ImageDiff.compare(a, b, threshold: threshold, includeAntialiasing: includeAntialiasing,
                                           makeDiffImage: diffTarget != nil)
        } catch {
            diffTarget?.discard()
            throw CLIFailure(error.description)
        }
        if let diffTarget, let image = result.diffImage {
            do {
                try diffTarget.commit(try ImageEncoder.png(try image.rasterImage()))
            } catch {
                diffTarget.discard()
                throw CLIFailure("--diff \(diffOutput ?? ""): \(error)", exitCode: 2)
            }
        }
        // Standard output carries the diff image with `--diff -`: the summary goes beside it.
        if diffOutput == OutputTarget.standardOutputName { printError(result.summary) } else { printLine(result.summary) }
        if result.differingFraction > allowed { throw CLIFailure(messages: [], exitCode: 1) }
    }

    /// A PNG as straight RGBA, or a failure naming the file (exit 2).
    private static func read(_ path: String) throws(CLIFailure) -> RGBAImage {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw CLIFailure("\(path): cannot read the file (\(error.localizedDescription))")
        }
        guard !data.isEmpty else { throw CLIFailure("\(path): the file is empty, not a PNG image") }
        do {
            return try StraightPNGDecoder.decode(data)
        } catch {
            throw CLIFailure("\(path): \(error)")
        }
    }
}
