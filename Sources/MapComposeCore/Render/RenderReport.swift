import Foundation

/// What one render drew, per layer, with per-tile provenance. Written by `--report`.
public struct RenderReport: Codable, Sendable {
    public var style: String
    public var center: [Double]
    public var zoom: Double
    public var size: [Int]
    public var scale: Double
    public var pixels: [Int]
    public var durationMs: Double
    /// Encoded tiles decoded during this render (each tile at most once).
    public var tilesDecoded: Int
    public var layers: [LayerReport]

    /// Tile problems across all layers (undecodable or unreadable tiles; not absent ones).
    public var problems: [String] { layers.flatMap(\.problems) }
}

/// What was drawn for one layer.
public struct LayerReport: Codable, Sendable {
    public var id: String
    public var source: String
    public var visible: Bool
    /// Why the layer was not drawn, when it was not.
    public var skipped: String?
    /// The tile level drawn.
    public var level: Int?
    public var opacity: Double
    public var blend: String
    public var tilesRequested: Int
    public var tilesDrawn: Int
    public var tilesMissing: Int
    public var problems: [String]
    public var tiles: [TileReport]
}

/// One tile of a layer: where it came from and whether it was drawn.
public struct TileReport: Codable, Sendable {
    public enum Status: String, Codable, Sendable {
        case drawn
        case missing
    }

    public var tile: String
    public var status: Status
    public var origin: String
    public var reason: String?
}
