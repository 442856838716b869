import Foundation

/// Something a render wants its user to know, as a typed value; `description` is the one
/// place it becomes text.
public struct RenderDiagnostic: Codable, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Codable, Sendable {
        /// A tile that exists but could not be used (corrupt, unreadable, wrong size).
        case tileProblem
        /// A server answered without a tile (404, not an image, an exception report), or an
        /// offline render found none cached: a miss, not a fault of the tile.
        case tileNotServed
        /// Tiles the source does not have, counted per layer.
        case tilesAbsent
        /// A layer left out for a reason worth a warning (e.g. far too many tiles).
        case layerSkipped
        /// The render's deadline passed before every tile arrived.
        case deadlinePassed
        /// The attribution was too long to draw whole.
        case attributionCut
    }

    public var kind: Kind
    public var layer: String
    /// The tile concerned, as level/column/row, for tile problems.
    public var tile: String?
    public var origin: String?
    /// The reason in words (a decoder's message, a skip reason).
    public var detail: String
    /// For `tilesAbsent`: how many of how many tiles of which level.
    public var count: Int?
    public var total: Int?
    public var level: Int?

    public var isTileProblem: Bool { kind == .tileProblem }

    static func tileProblem(layer: String, tile: TileCoord, origin: String, reason: TileMissReason) -> RenderDiagnostic {
        RenderDiagnostic(kind: .tileProblem, layer: layer, tile: tile.description, origin: origin,
                         detail: reason.description)
    }

    /// `count` tiles of `total` at `level` could not be had for the same `reason`; `tile` and
    /// `origin` are the first of them.
    static func tileProblem(layer: String, tile: TileCoord, origin: String, reason: TileMissReason, count: Int,
                            of total: Int, level: Int) -> RenderDiagnostic {
        RenderDiagnostic(kind: .tileProblem, layer: layer, tile: tile.description, origin: origin,
                         detail: reason.description, count: count, total: total, level: level)
    }

    /// `count` tiles of `total` at `level` got the same answer `detail`; `tile` and `origin`
    /// are the first of them.
    static func tileNotServed(layer: String, tile: TileCoord, origin: String, detail: String, count: Int, of total: Int,
                              level: Int) -> RenderDiagnostic {
        RenderDiagnostic(kind: .tileNotServed, layer: layer, tile: tile.description, origin: origin, detail: detail,
                         count: count, total: total, level: level)
    }

    static func tilesAbsent(layer: String, count: Int, of total: Int, level: Int, standIns: Int) -> RenderDiagnostic {
        RenderDiagnostic(kind: .tilesAbsent, layer: layer,
                         detail: standIns > 0 ? "\(standIns) drawn from other levels" : "absent from the source",
                         count: count, total: total, level: level)
    }

    static func layerSkipped(layer: String, reason: String) -> RenderDiagnostic {
        RenderDiagnostic(kind: .layerSkipped, layer: layer, detail: reason)
    }

    static func deadlinePassed(seconds: Double, missing: Int) -> RenderDiagnostic {
        RenderDiagnostic(kind: .deadlinePassed, layer: "",
                         detail: "the render's deadline of \(seconds.exactText) s passed; \(missing) missing tile"
                             + (missing == 1 ? " was" : "s were") + " drawn by fallback or left out (--deadline, or the style's deadline:)",
                         count: missing)
    }

    static func attributionCut(limit: Int) -> RenderDiagnostic {
        RenderDiagnostic(kind: .attributionCut, layer: "",
                         detail: "the attribution is over \(limit) characters long: it is drawn cut to \(limit), ending in …")
    }

    public var description: String {
        switch kind {
        case .tileProblem, .tileNotServed:
            guard let count, count > 1 else {
                // A MapLibre group's problems name their tile in the detail (its URL or path).
                guard let tile else { return "layer '\(layer)': \(detail)" }
                return "layer '\(layer)': tile \(tile) (\(origin ?? "?")): \(detail)"
            }
            return "layer '\(layer)': \(count) of \(total ?? count) tiles of level \(level ?? 0): \(detail) "
                + "(first: tile \(tile ?? "?"), \(origin ?? "?"))"
        case .tilesAbsent:
            let filled = detail == "absent from the source" ? "" : " (\(detail))"
            return "layer '\(layer)': \(count ?? 0) of \(total ?? 0) tiles of level \(level ?? 0) absent\(filled)"
        case .layerSkipped:
            return "layer '\(layer)': skipped: \(detail)"
        case .deadlinePassed, .attributionCut:
            return detail
        }
    }
}
