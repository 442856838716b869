import Foundation

/// A rendered image judged against one or more expected images with pixelmatch: the closest
/// expected image counts, and the render passes when at most `allowed` of its pixels differ
/// at `threshold`. Used by `mapcompose check` and by the project's own golden tests.
public struct ImageComparison: Sendable {
    /// pixelmatch colour threshold, 0…1.
    public var threshold: Double
    /// Largest share of differing pixels that passes, 0…1.
    public var allowed: Double

    public init(threshold: Double = 0.1, allowed: Double = 0) {
        self.threshold = threshold
        self.allowed = allowed
    }

    /// The comparison with the closest expected image.
    public struct Outcome: Sendable {
        /// Index of the closest expected image.
        public let expectedIndex: Int
        public let result: ImageDiffResult
        public let passed: Bool
    }

    /// Compares `actual` with every expected image of its size and keeps the closest
    /// (fewest differing pixels; the first on a tie). Throws when none has its size.
    public func compare(actual: RGBAImage, expected: [RGBAImage]) throws(ImageDiffError) -> Outcome {
        var best: (index: Int, result: ImageDiffResult)?
        var sizes: [String] = []
        for (index, candidate) in expected.enumerated() {
            guard candidate.width == actual.width, candidate.height == actual.height else {
                sizes.append("\(candidate.width)x\(candidate.height)")
                continue
            }
            let result = try ImageDiff.compare(actual, candidate, threshold: threshold, makeDiffImage: true)
            if best == nil || result.differingPixels < best!.result.differingPixels { best = (index, result) }
        }
        guard let best else { throw sizeMismatch(actual, sizes) }
        return Outcome(expectedIndex: best.index, result: best.result,
                       passed: best.result.differingFraction <= allowed)
    }

    /// Compares `actual` with every expected PNG file of its size, as `compare(actual:expected:)`
    /// does, and returns the closest image too. Sizes are read from the files' headers first:
    /// a file of another size is never decoded, so a header claiming a huge image costs nothing.
    public func compare(actual: RGBAImage, expectedFiles: [URL]) throws -> (outcome: Outcome, expected: RGBAImage) {
        var best: (outcome: Outcome, image: RGBAImage)?
        var sizes: [String] = []
        for (index, file) in expectedFiles.enumerated() {
            let image: RGBAImage
            // A folder, an empty or unreadable file is named as such.
            let data = try CheckCase.read(file, expecting: "a PNG image")
            do {
                let size = try StraightPNGDecoder.size(of: data)
                guard size.width == actual.width, size.height == actual.height else {
                    sizes.append("\(size.width)x\(size.height)")
                    continue
                }
                image = try StraightPNGDecoder.decode(data)
            } catch {
                throw ImageDiffError(description: "\(file.path): \(error)")
            }
            let outcome = try compare(actual: actual, expected: [image])
            if best == nil || outcome.result.differingPixels < best!.outcome.result.differingPixels {
                best = (Outcome(expectedIndex: index, result: outcome.result, passed: outcome.passed), image)
            }
        }
        guard let best else { throw sizeMismatch(actual, sizes) }
        return (best.outcome, best.image)
    }

    private func sizeMismatch(_ actual: RGBAImage, _ sizes: [String]) -> ImageDiffError {
        ImageDiffError(description: "the render is \(actual.width)x\(actual.height) but the expected image"
                       + "\(sizes.count == 1 ? " is" : "s are") \(sizes.joined(separator: ", "))")
    }

    /// Writes `actual.png`, `expected.png` and (when given) `diff.png` into `folder`, creating it.
    public static func writeImages(to folder: URL, actual: RGBAImage, expected: RGBAImage?, diff: RGBAImage?) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, image) in [("actual", actual), ("expected", expected), ("diff", diff)] {
            guard let image else { continue }
            try ImageEncoder.png(try image.rasterImage()).write(to: folder.appendingPathComponent("\(name).png"))
        }
    }
}
