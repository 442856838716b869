import Foundation

/// How one case of a check suite came out.
public struct CheckCaseOutcome: Sendable {
    public enum Status: String, Sendable {
        case passed
        case failed
        /// `--update` wrote the expected image.
        case updated
    }

    public let name: String
    public var status: Status
    /// Why it failed, or what was updated.
    public var message: String
    /// Differing pixels against the closest expected image (nil when not compared).
    public var differingPixels: Int?
    public var totalPixels: Int?
    public var threshold: Double
    public var allowed: Double
    /// The closest expected image's file name.
    public var expectedName: String?
    /// The render's report (JSON), when the render got that far.
    public var reportJSON: String?

    /// Share of differing pixels, or 1 when the case could not be compared (sorts first).
    public var differingFraction: Double {
        guard let differingPixels, let totalPixels, totalPixels > 0 else { return 1 }
        return Double(differingPixels) / Double(totalPixels)
    }
}
