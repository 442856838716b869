import Foundation

/// What one render drew, per layer, with per-tile provenance. Written by `--report` as JSON
/// with sorted keys and no timestamps, so two runs of the same render compare equal apart
/// from `durationMs`.
public struct RenderReport: Codable, Sendable {
    /// `ok`, or `failed` with `error` saying why (a failed render's report never claims success).
    public var status: RenderStatus
    public var error: String?
    public var style: String
    /// [latitude, longitude]
    public var center: [Double]
    public var zoom: Double
    /// CSS pixels, [width, height].
    public var size: [Int]
    public var scale: Double
    /// Output pixels, [width, height].
    public var pixels: [Int]
    /// The output's edges in EPSG:3857 metres, [minX, minY, maxX, maxY] (x not wrapped).
    public var bbox3857: [Double]
    /// How long the render took.
    public var durationMs: Double
    /// Encoded tiles decoded during this render (each tile at most once).
    public var tilesDecoded: Int
    public var layers: [LayerReport]
    public var diagnostics: [RenderDiagnostic]

    /// Diagnostics that make `--strict` fail: tiles that are corrupt or unreadable.
    public var problems: [RenderDiagnostic] { diagnostics.filter(\.isTileProblem) }

    /// True when layers asked for tiles, none of them drew one (nor a stand-in from another
    /// level), and tiles failed (a server
    /// that could not be reached, broken tiles): the map is blank because of those failures.
    public var noTileCouldBeHad: Bool {
        let asking = layers.filter { $0.tilesRequested > 0 }
        return !asking.isEmpty && !problems.isEmpty
            && asking.allSatisfy { $0.tilesDrawn == 0 && $0.tilesFromParents == 0 && $0.tilesFromChildren == 0 }
    }
}

/// Whether a render succeeded.
public enum RenderStatus: String, Codable, Sendable {
    case ok
    case failed
}

/// What was drawn for one layer.
public struct LayerReport: Codable, Sendable {
    public var id: String
    public var source: String
    /// The identity of the source's tile grid.
    public var grid: String
    public var visible: Bool
    /// Why the layer was not drawn, when it was not.
    public var skipped: String?
    /// The grid level drawn (the finer one for a crossfade).
    public var level: Int?
    /// Every level drawn, coarsest first (two for a crossfade).
    public var levels: [Int]
    /// For a crossfade, the weight of the finer level.
    public var crossfadeWeight: Double?
    /// The levels the source has, [min, max].
    public var nativeLevels: [Int]
    /// The layer's opacity at the render zoom (after its fade).
    public var opacity: Double
    public var blend: String
    public var tilesRequested: Int
    public var tilesDrawn: Int
    public var tilesMissing: Int
    /// Of the missing tiles, those the source simply does not have.
    public var tilesAbsent: Int
    /// Missing tiles drawn from an ancestor, and from descendants.
    public var tilesFromParents: Int
    public var tilesFromChildren: Int
    /// Tiles of the covering range not asked for because they lie outside the bounds.
    public var tilesOutsideBounds: Int
    /// Every tile asked for, sorted by level, row and column.
    public var tiles: [TileReport]
    /// What the source says about how it was read (see `TileSourceInfo.notes`); nil when nothing.
    public var sourceNotes: [String]? = nil
}

/// How a drawn tile's level relates to the output, or that nothing was drawn.
public enum TileStatus: String, Codable, Sendable {
    /// The level the output's resolution asks for.
    case exact
    /// A coarser level scaled up (the output is deeper than the source's levels).
    case overzoomed
    /// A finer level scaled down (the output is coarser than the source's levels).
    case underzoomed
    /// Missing; the sub-square of an ancestor (at `fallbackLevel`) was drawn instead.
    case parent
    /// Missing; descendants (from `fallbackLevel` down) were drawn instead, over any ancestor.
    case children
    /// Missing, and no fallback had it: the layer's `missing` fill.
    case missing
    /// Outside the layer's bounds: not asked for.
    case outsideBounds
}

/// One tile of a layer: its grid address, what was drawn and where it came from.
public struct TileReport: Codable, Sendable {
    public var level: Int
    public var column: Int
    public var row: Int
    public var status: TileStatus
    /// Path, URL or row of the tile (none for tiles outside the bounds).
    public var origin: String?
    /// Why the tile is missing, when it is.
    public var reason: String?
    /// For `parent` and `children`: the level the drawn pixels came from.
    public var fallbackLevel: Int?
}
