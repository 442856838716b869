import Foundation

/// Tiles described by a TileJSON document (`type: tilejson`).
public struct TileJSONSourceSpec: Sendable {
    /// Where the document is.
    public enum Location: Sendable, Equatable {
        /// An http(s) URL (may reference `${NAME}` variables).
        case remote(EnvironmentReference)
        case file(URL)
    }

    public var location: Location
    /// Overrides the document's tile size.
    public var tileSize: Int?
    /// Overrides the document's zoom range.
    public var nativeZoom: ClosedRange<Int>?
    public var retina: Bool
    public var remote: RemoteOptions

    public init(location: Location, tileSize: Int? = nil, nativeZoom: ClosedRange<Int>? = nil, retina: Bool = false,
                remote: RemoteOptions) {
        self.location = location
        self.tileSize = tileSize
        self.nativeZoom = nativeZoom
        self.retina = retina
        self.remote = remote
    }

    /// Where the document is, for messages.
    public var locationText: String {
        switch location {
        case .remote(let url): return url.text
        case .file(let url): return url.path
        }
    }
}
