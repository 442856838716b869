import Foundation

/// A tile as the store hands it out, and where it came from for this request.
public struct StoredTile: Sendable {
    public enum Content: Sendable {
        case image(RasterImage)
        case missing(TileMissReason)
    }

    /// How this request was served.
    public enum Provenance: Sendable, Equatable {
        /// Fetched from the source for this request (`decoded`: its bytes were decoded).
        case source(decoded: Bool)
        /// Shared with a request for the same tile that was already in flight.
        case inFlight
        /// Kept in memory from an earlier request.
        case memory
        /// A definite miss remembered from an earlier request.
        case rememberedMiss
    }

    public let content: Content
    /// Path, URL or row of the tile, for reports and messages.
    public let origin: String
    public let provenance: Provenance
    /// The source read these bytes from its disk cache.
    public var cameFromDiskCache = false

    public init(content: Content, origin: String, provenance: Provenance, cameFromDiskCache: Bool = false) {
        self.content = content
        self.origin = origin
        self.provenance = provenance
        self.cameFromDiskCache = cameFromDiskCache
    }
}
