import Foundation
import MapComposeCore

/// Compares a render with an expected image (pixelmatch-style) and, when it does not match,
/// writes actual.png, expected.png and diff.png to `Output/test-results/<name>/`
/// (always, with KEEP_TEST_IMAGES=1).
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

        public var summary: String {
            String(format: "%d of %d pixels differ (%.4f%%, %d anti-aliased ignored)",
                   result.differingPixels, result.totalPixels, result.differingFraction * 100,
                   result.antialiasedPixels)
        }
    }

    public func compare(actual: RasterImage, expected: RasterImage) throws -> Outcome {
        let result = try ImageDiff.compare(actual, expected, threshold: threshold, makeDiffImage: true)
        let passed = result.differingFraction <= maxDifferingFraction
        var folder: URL?
        if !passed || ProcessInfo.processInfo.environment["KEEP_TEST_IMAGES"] == "1" {
            let url = TestPaths.results(name)
            try ImageEncoder.png(actual).write(to: url.appendingPathComponent("actual.png"))
            try ImageEncoder.png(expected).write(to: url.appendingPathComponent("expected.png"))
            if let diff = result.diffImage {
                try ImageEncoder.png(diff).write(to: url.appendingPathComponent("diff.png"))
            }
            folder = url
        }
        return Outcome(result: result, passed: passed, resultsFolder: folder)
    }

    /// Loads a PNG or JPEG file as an image.
    public static func load(_ url: URL) throws -> RasterImage {
        try TileDecoder.decode(try Data(contentsOf: url))
    }
}
