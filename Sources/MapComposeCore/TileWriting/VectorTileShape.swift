/// A feature's geometry to encode, in tile units (x right, y down; 0 ..< extent across the
/// tile, with points outside it in the buffer).
public enum VectorTileShape: Sendable, Equatable {
    /// One point or several (a multipoint).
    case points([SIMD2<Int32>])
    /// One line or several (a multiline).
    case lines([[SIMD2<Int32>]])
    /// Each polygon: its exterior ring, then its holes. A ring may or may not repeat its first
    /// point at the end, and may be wound either way: the encoder winds it as the format says.
    case polygons([[[SIMD2<Int32>]]])
}
