import Foundation
import MapComposeCore

/// Compares a render with an expected image through the library's `ImageComparison` (the
/// code `mapcompose check` uses) and, when it does not match, writes actual.png, expected.png
/// and diff.png to `Output/test-results/<name>/` (always, with KEEP_TEST_IMAGES=1).
public struct GoldenComparison {
    public let name: String
    /// pixelmatch colour threshold (0…1).
    public var threshold = 0.1
    /// Largest share of differing pixels accepted.
    public var maxDifferingFraction = 0.01

    public init(name: String, threshold: Double = 0.1, maxDifferingFraction: Double = 0.01) {
        self.name = name
        self.threshold = threshold
        self.maxDifferingFraction = maxDifferingFraction
    }

    public struct Outcome {
        public let result: ImageDiffResult
        public let passed: Bool
        public let resultsFolder: URL?

        public var summary: String { result.summary }
    }

    public func compare(actual: RasterImage, expected: RasterImage) throws -> Outcome {
        let actualPixels = RGBAImage(actual), expectedPixels = RGBAImage(expected)
        let outcome = try ImageComparison(threshold: threshold, allowed: maxDifferingFraction)
            .compare(actual: actualPixels, expected: [expectedPixels])
        var folder: URL?
        if !outcome.passed || ProcessInfo.processInfo.environment["KEEP_TEST_IMAGES"] == "1" {
            folder = TestPaths.results(name)
            try ImageComparison.writeImages(to: folder!, actual: actualPixels, expected: expectedPixels,
                                            diff: outcome.result.diffImage)
        }
        return Outcome(result: outcome.result, passed: outcome.passed, resultsFolder: folder)
    }

    /// Loads a PNG or JPEG file as an image.
    public static func load(_ url: URL) throws -> RasterImage {
        try TileDecoder.decode(try Data(contentsOf: url))
    }
}
