import Foundation

/// What a source can serve: its native zoom range, extent and credit.
public struct TileSourceInfo: Sendable, Equatable {
    /// Levels the source really has; outside, tiles of the nearest native level are scaled.
    public var nativeZoom: ClosedRange<Int>
    /// Extent of the data; no tile outside is requested.
    public var bounds: GeoBounds?
    public var attribution: String?
    /// True when the source draws tiles itself and can draw them at any pixel ratio (@2x tiles
    /// of 512 px covering the same area), so retina output keeps symbol and text sizes.
    public var drawsAtAnyPixelRatio: Bool

    public init(nativeZoom: ClosedRange<Int>, bounds: GeoBounds? = nil, attribution: String? = nil,
                drawsAtAnyPixelRatio: Bool = false) {
        self.nativeZoom = nativeZoom
        self.bounds = bounds
        self.attribution = attribution
        self.drawsAtAnyPixelRatio = drawsAtAnyPixelRatio
    }
}

/// Bytes or pixels a source returned for one tile.
public enum TileContent: Sendable {
    /// Encoded PNG or JPEG, decoded by the renderer.
    case encoded(Data)
    /// Pixels the source drew itself.
    case raster(RasterImage)
}

/// Why a source has no usable tile at a coordinate.
public enum TileMissReason: Sendable, Equatable, CustomStringConvertible {
    /// The source does not have this tile.
    case absent
    /// Reading the tile failed.
    case readFailed(String)
    /// The bytes were not a usable image.
    case undecodable(TileDecodeError)

    public var description: String {
        switch self {
        case .absent: return "not in source"
        case .readFailed(let detail): return "read failed: \(detail)"
        case .undecodable(let error): return error.description
        }
    }

    /// Absent tiles are normal; the others are problems worth a diagnostic.
    public var isProblem: Bool { self != .absent }
}

/// The result of asking a source for one tile, with where it came from.
public struct TileFetch: Sendable {
    public enum Outcome: Sendable {
        case found(TileContent)
        case missing(TileMissReason)
    }

    public var outcome: Outcome
    /// A path, URL or row that locates the tile, for reports and messages.
    public var origin: String

    public init(_ outcome: Outcome, origin: String) {
        self.outcome = outcome
        self.origin = origin
    }
}

/// A provider of map tiles. Implementations must be safe to call concurrently.
public protocol TileSource: Sendable {
    var info: TileSourceInfo { get }
    /// Fetches the tile at `coord` (x already wrapped into range); never throws: a miss is a result.
    /// `pixelRatio` above 1 asks a source that `drawsAtAnyPixelRatio` for larger tiles; others ignore it.
    func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch
}
