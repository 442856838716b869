import Foundation

/// What a source can serve: its identity, grid, native levels, extent and credit.
public struct TileSourceInfo: Sendable, Equatable {
    /// Levels assumed for a file source that says nothing about its levels.
    public static let defaultNativeLevels = 0...22

    /// Names the tiles this source serves, derived from its definition (kind, resolved path or
    /// URL template, scheme, drawing parameters) and never from a secret: two layers or styles
    /// naming the same tiles have the same identity and share the tile store's entries.
    public var identity: String
    /// The tiling scheme of the source's tiles.
    public var matrix: TileMatrix
    /// Levels the source really has; outside, tiles of the nearest native level are scaled.
    public var nativeZoom: ClosedRange<Int>
    /// Extent of the data; no tile outside is requested.
    public var bounds: GeoBounds?
    public var attribution: String?
    /// True when the source draws tiles itself and can draw them at any pixel ratio (@2x tiles
    /// of twice the pixels covering the same area), so retina output keeps symbol and text sizes.
    public var drawsAtAnyPixelRatio: Bool
    /// The largest pixel ratio the source serves tiles at: 1 for plain tiles, 2 for a server
    /// with `@2x` tiles, unbounded for sources that draw at any ratio.
    public var maxPixelRatio: Int
    /// False for sources whose tiles are cheaper to draw again than to keep (a flat colour):
    /// the tile store then does not spend its memory budget on them.
    public var keepsTilesInMemory: Bool
    /// What a render's report says about how the source was read (e.g. which of a cache's
    /// folders was chosen, or that its extent is unknown).
    public var notes: [String]

    public init(identity: String, matrix: TileMatrix = .webMercator(), nativeZoom: ClosedRange<Int>,
                bounds: GeoBounds? = nil, attribution: String? = nil, drawsAtAnyPixelRatio: Bool = false,
                maxPixelRatio: Int? = nil, keepsTilesInMemory: Bool = true, notes: [String] = []) {
        self.identity = identity
        self.matrix = matrix
        self.nativeZoom = nativeZoom.clamped(to: matrix.levelRange)
        self.bounds = bounds
        self.attribution = attribution
        self.drawsAtAnyPixelRatio = drawsAtAnyPixelRatio
        self.maxPixelRatio = max(1, maxPixelRatio ?? (drawsAtAnyPixelRatio ? Int.max : 1))
        self.keepsTilesInMemory = keepsTilesInMemory
        self.notes = notes
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
    /// Reading the tile failed; asking again may succeed.
    case readFailed(String)
    /// The bytes were not a usable image.
    case undecodable(TileDecodeError)
    /// The source's storage is damaged where this tile should be (a truncated file, an index
    /// pointing past its end): asking again gives the same answer.
    case corrupt(String)
    /// A server answered without a tile (404, 204, an empty body, not an image, an exception
    /// report), or an offline render found none in the disk cache: the detail says which.
    case notServed(String)
    /// The image is far larger than the grid's cell (beyond @4x).
    case wrongSize(width: Int, height: Int, expectedWidth: Int, expectedHeight: Int)

    public var description: String {
        switch self {
        case .absent: return "not in source"
        case .readFailed(let detail): return "read failed: \(detail)"
        case .undecodable(let error): return error.description
        case .corrupt(let detail): return "damaged source: \(detail)"
        case .notServed(let detail): return detail
        case .wrongSize(let w, let h, let ew, let eh):
            return "tile is \(w)x\(h) pixels; the grid's tiles are \(ew)x\(eh) (up to 4x that for high-resolution tiles)"
        }
    }

    /// A definite miss is remembered for the run (asking again gives the same answer); a
    /// transient one (a read error) is reported but asked again next time.
    public var isDefinite: Bool {
        if case .readFailed = self { return false }
        return true
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
    /// The bytes came from the disk cache: if they do not decode, the source can drop its copy
    /// (`dropCachedCopy`) and be asked again.
    public var fromDiskCache: Bool

    public init(_ outcome: Outcome, origin: String, fromDiskCache: Bool = false) {
        self.outcome = outcome
        self.origin = origin
        self.fromDiskCache = fromDiskCache
    }
}

/// A provider of map tiles. Implementations must be safe to call concurrently.
public protocol TileSource: Sendable {
    var info: TileSourceInfo { get }
    /// Fetches the tile at `coord` (level, column, row of `info.matrix`; the column already
    /// wrapped into the matrix); never throws: a miss is a result.
    /// `pixelRatio` above 1 asks a source that `drawsAtAnyPixelRatio` for larger tiles; others ignore it.
    func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch
    /// Forgets the disk-cached copy of a tile whose bytes did not decode; true when there was one.
    func dropCachedCopy(_ coord: TileCoord, pixelRatio: Int) async -> Bool
    /// The source to draw `viewport` from: itself, or, for a source whose requests follow the
    /// view (a WMS in single mode), one whose grid is laid on the view.
    func forViewport(_ viewport: Viewport) -> any TileSource
    /// For a source whose tiles are quick reads of local storage (files, a database on disk):
    /// reads one tile on the spot, blocking the calling thread, so the tile store can read and
    /// decode a block's worth together on all cores. Nil (the default) for sources that must
    /// wait on anything else, such as a server.
    var localReader: LocalReader? { get }
}

extension TileSource {
    /// Reads the tile at a coordinate (as `fetch`) at a pixel ratio, blocking the caller.
    public typealias LocalReader = @Sendable (TileCoord, Int) -> TileFetch

    public func dropCachedCopy(_ coord: TileCoord, pixelRatio: Int) async -> Bool { false }
    public var localReader: LocalReader? { nil }
    public func forViewport(_ viewport: Viewport) -> any TileSource { self }
}
