/// The block of `size`×`size` grid tiles (fewer at the grid's edge) a tile belongs to, with a
/// `buffer` of pixels around it: what one metatiled GetMap asks for.
struct Metatile: Sendable, Equatable {
    /// Top-left tile of the block.
    let origin: TileCoord
    let columns: Int
    let rows: Int
    let buffer: Int
    /// The area asked for, buffer included.
    let box: MetersRect
    let pixelWidth: Int
    let pixelHeight: Int
    /// Its key in the disk cache.
    let cacheKey: String

    init(containing coord: TileCoord, size: Int, buffer: Int, matrix: TileMatrix) {
        let level = matrix.levels[coord.z]
        origin = TileCoord(z: coord.z, x: coord.x - coord.x % size, y: coord.y - coord.y % size)
        columns = min(size, level.matrixWidth - origin.x)
        rows = min(size, level.matrixHeight - origin.y)
        self.buffer = buffer
        let topLeft = matrix.tileExtent(level: coord.z, column: origin.x, row: origin.y)
        let bottomRight = matrix.tileExtent(level: coord.z, column: origin.x + columns - 1, row: origin.y + rows - 1)
        let margin = Double(buffer) * level.resolution
        box = MetersRect(minX: topLeft.minX - margin, minY: bottomRight.minY - margin,
                         maxX: bottomRight.maxX + margin, maxY: topLeft.maxY + margin)
        pixelWidth = columns * matrix.tileWidth + 2 * buffer
        pixelHeight = rows * matrix.tileHeight + 2 * buffer
        cacheKey = "meta\(size)+\(buffer)/" + origin.cacheKey(pixelRatio: 1)
    }

    /// Where `coord`'s pixels start in the metatile's picture.
    func offset(of coord: TileCoord, matrix: TileMatrix) -> (x: Int, y: Int) {
        (buffer + (coord.x - origin.x) * matrix.tileWidth, buffer + (coord.y - origin.y) * matrix.tileHeight)
    }
}
