import Foundation

/// Why an ArcGIS cache cannot be used: the file or folder concerned and the reason.
public struct ArcGISCacheError: Error, Equatable, CustomStringConvertible {
    /// The file or folder the problem is in.
    public let path: String
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
