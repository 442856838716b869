/// What a layer draws where a tile is missing: the nearest ancestor available up to `parents`
/// levels up (its sub-square scaled up), under up to `children` levels of descendants (scaled
/// down); what neither covers gets the `missing` fill.
public struct TileFallback: Sendable, Equatable {
    /// Levels up searched for an ancestor (0: none).
    public var parents: Int
    /// Levels down searched for descendants (0: none).
    public var children: Int

    /// Deepest search allowed in either direction.
    public static let maxDepth = 8
    /// Four levels up (a tile scaled at most 16×) and one level down (four tiles at half size).
    public static let standard = TileFallback(parents: 4, children: 1)
    /// No fallback: a missing tile stays missing.
    public static let none = TileFallback(parents: 0, children: 0)

    public init(parents: Int, children: Int) {
        self.parents = parents
        self.children = children
    }
}
