/// What identifies one tile in the shared store: the source's identity, the grid address and
/// the pixel ratio it was asked at.
public struct TileKey: Hashable, Sendable, CustomStringConvertible {
    public let source: String
    public let level: Int
    public let column: Int
    public let row: Int
    public let pixelRatio: Int

    public init(source: String, coord: TileCoord, pixelRatio: Int) {
        self.source = source
        level = coord.z
        column = coord.x
        row = coord.y
        self.pixelRatio = pixelRatio
    }

    public var description: String { "\(source) \(level)/\(column)/\(row)@\(pixelRatio)x" }
}
