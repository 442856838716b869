import ArgumentParser
import Foundation
import MapComposeCommandLine
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

    @Option(name: .customLong("max-pixels"), parsing: .unconditional,
            help: "Largest image (width × height) compared. Images over 4 Mpixels (2048²) are read a band of rows at a time, so memory stays about 100 MB whatever their size; the time grows with it.")
    var maxPixels = ImageDiff.defaultMaxPixels

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
        guard maxPixels > 0 else { throw CLIFailure("--max-pixels \(maxPixels): expected a number of pixels, e.g. 67108864") }
        // Sizes come from the headers, before a pixel is decoded: a small file may claim a huge image.
        let (dataA, sizeA) = try Self.header(first), (dataB, sizeB) = try Self.header(second)
        guard sizeA == sizeB else {
            diffTarget?.discard()
            throw CLIFailure("\(first) is \(sizeA.width)x\(sizeA.height) but \(second) is \(sizeB.width)x\(sizeB.height): "
                             + "only images of the same size compare")
        }
        guard sizeA.width * sizeA.height <= maxPixels else {
            diffTarget?.discard()
            throw CLIFailure("\(first) and \(second) are \(sizeA.width)x\(sizeA.height), \(sizeA.width * sizeA.height) pixels, "
                             + "over the limit of \(maxPixels): raise --max-pixels to compare them")
        }
        // Both files are decoded a band of rows at a time, side by side (images up to
        // `PNGRowReader.wholeImagePixels` whole, both at once), and the diff image is written as
        // its rows are made: memory does not grow with the images' size.
        let opened = PNGRowReader.open([dataA, dataB], maxPixels: maxPixels)
        let readers = (try Self.reader(opened[0], first), try Self.reader(opened[1], second))
        let writer: PNGRowWriter?
        do {
            writer = diffTarget == nil ? nil : try PNGRowWriter(width: sizeA.width, height: sizeA.height)
        } catch {
            diffTarget?.discard()
            throw CLIFailure("--diff \(diffOutput ?? ""): \(error)", exitCode: 2)
        }
        let result: ImageDiffResult
        do {
            result = try ImageDiff.compare(readers.0, readers.1, threshold: threshold, includeAntialiasing: includeAntialiasing,
                                           diffRows: writer.map { writer in
                                               { rows in try diffTarget!.append(try writer.write(rows)) }
                                           })
            try diffTarget?.commit(Data())
        } catch {
            diffTarget?.discard()
            throw CLIFailure(Self.message(error, paths: [first, second], diffOutput: diffOutput))
        }
        // Standard output carries the diff image with `--diff -`: the summary goes beside it.
        if diffOutput == OutputTarget.standardOutputName { printError(result.summary) } else { printLine(result.summary) }
        if result.differingFraction > allowed { throw CLIFailure(messages: [], exitCode: 1) }
    }

    /// A PNG file's bytes and the size its header claims, or a failure naming the file (exit 2).
    private static func header(_ path: String) throws(CLIFailure) -> (data: Data, size: (width: Int, height: Int)) {
        let data: Data
        do {
            data = try InputFile.read(path)
        } catch {
            throw CLIFailure("\(path): cannot read the file: \(error.reason)")
        }
        guard !data.isEmpty else { throw CLIFailure("\(path): the file is empty, not a PNG image") }
        do {
            return (data, try StraightPNGDecoder.size(of: data))
        } catch {
            throw CLIFailure("\(path): \(error)")
        }
    }

    /// The row reader of the PNG at `path`, or a failure naming the file (exit 2).
    private static func reader(_ opened: Result<PNGRowReader, TileDecodeError>, _ path: String) throws(CLIFailure) -> PNGRowReader {
        switch opened {
        case .success(let reader): return reader
        case .failure(let error): throw CLIFailure("\(path): \(error)")
        }
    }

    /// What went wrong in a streamed comparison, naming the file it concerns.
    private static func message(_ error: any Error, paths: [String], diffOutput: String?) -> String {
        switch error {
        case StreamedDiffError.unreadable(let image, let failure): return "\(paths[image]): \(failure)"
        case StreamedDiffError.diffImage(let failure): return "--diff \(diffOutput ?? ""): \(failure)"
        default: return "--diff \(diffOutput ?? ""): \(error)"
        }
    }
}
