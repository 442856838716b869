import Foundation

/// Why a request produced no image.
public struct RenderFailure: Error, CustomStringConvertible {
    public enum Kind: Sendable {
        /// The request itself is unusable (bad area, size, quality, or output path).
        case badRequest
        /// Rendering, encoding or writing failed.
        case renderFailed
        /// `strict` and some tiles were corrupt or unreadable.
        case tileProblems
    }

    public let kind: Kind
    public let message: String
    /// The render's report when it got that far (its status is `failed`).
    public let report: RenderReport?

    public var description: String { message }
}
