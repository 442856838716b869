import Foundation

/// Raster tiles (PNG, JPEG, WebP) from a PMTiles version 3 archive: a file, or a URL read by
/// HTTP range requests.
public struct PMTilesSourceSpec: Sendable {
    public enum Location: Sendable {
        case file(URL)
        /// An http(s) URL (may reference `${NAME}` variables).
        case remote(EnvironmentReference)
    }

    public var location: Location
    /// Overrides the archive's minzoom/maxzoom.
    public var nativeZoom: ClosedRange<Int>?
    /// Pixel size of the tiles: 256 or 512.
    public var tileSize: Int
    /// HTTP settings for a remote archive.
    public var remote: RemoteOptions

    public init(location: Location, nativeZoom: ClosedRange<Int>? = nil, tileSize: Int = 256, remote: RemoteOptions) {
        self.location = location
        self.nativeZoom = nativeZoom
        self.tileSize = tileSize
        self.remote = remote
    }

    /// The path or URL as written.
    public var locationText: String {
        switch location {
        case .file(let url): return url.path
        case .remote(let url): return url.text
        }
    }
}
