import Foundation

/// One image holding a rectangle of a source's tiles edge to edge, each decoded straight into
/// its cell: the tiles the store keeps are views of their cells, and a mosaic of exactly that
/// rectangle is the slab itself, with nothing stitched and no pixels copied (see
/// `TileMosaic`). A tile of another size gets an image of its own, and one that does not
/// decode leaves its cell transparent. Its memory may be reused (see `PixelMemory`): a tile
/// decoded into a cell writes all of it, and the cells left without one are cleared after.
///
/// The pixels live as long as any of the tiles or mosaics made from them.
final class TileSlab: @unchecked Sendable {
    /// Where one tile's pixels are in a slab.
    struct Cell: Sendable {
        let slab: TileSlab
        /// The cell's top-left pixel in the slab's image.
        let x: Int, y: Int
    }

    /// The tiles' rectangle (columns wrapped into the grid, as the store keys them).
    let range: TileRange
    let cellWidth: Int, cellHeight: Int
    let image: RasterImage
    /// A view of each cell, row by row, to decode into, made up front on one thread: making a
    /// view flushes the image it views, which must not happen on several threads at once. They
    /// do not know the slab (it holds them: that would keep it alive for ever); the tiles
    /// handed out, made by `finishDecoding`, do.
    private let cells: [RasterImage]
    /// How many cells hold a tile. Set once, by the job that decodes into the slab, before any
    /// of its tiles is handed out; read only after.
    private(set) var filledCells = 0

    /// A transparent slab for `range` with cells of `cellWidth × cellHeight` pixels; nil when
    /// the image cannot be made (then each tile gets its own).
    init?(range: TileRange, cellWidth: Int, cellHeight: Int) {
        self.range = range
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        let (width, wide) = range.columns.count.multipliedReportingOverflow(by: cellWidth)
        let (height, tall) = range.rows.count.multipliedReportingOverflow(by: cellHeight)
        // Every cell is written by the tile decoded into it, or cleared when decoding is done.
        guard !wide, !tall, let image = try? RasterImage(unclearedWidth: width, height: height) else { return nil }
        self.image = image
        var cells: [RasterImage] = []
        cells.reserveCapacity(range.count)
        for row in 0..<range.rows.count {
            for column in 0..<range.columns.count {
                guard let view = try? image.cellView(x: column * cellWidth, y: row * cellHeight, width: cellWidth,
                                                     height: cellHeight, slab: nil) else { return nil }
                cells.append(view)
            }
        }
        self.cells = cells
    }

    /// The rectangle distinct `coords` cover when they are every tile of one, on one level; nil
    /// otherwise. (The store lists each coordinate once already.)
    static func rectangle(of coords: [TileCoord]) -> TileRange? {
        guard let first = coords.first, coords.count > 1 else { return nil }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for coord in coords {
            guard coord.z == first.z else { return nil }
            minX = min(minX, coord.x); maxX = max(maxX, coord.x)
            minY = min(minY, coord.y); maxY = max(maxY, coord.y)
        }
        let range = TileRange(level: first.z, columns: minX...maxX, rows: minY...maxY)
        guard range.count == coords.count else { return nil }
        return range
    }

    /// The slab whose image is exactly `tiles` laid out on `width × height` pixels, each with
    /// its top-left corner at (x, y): every tile is a cell of it, at its cell, and every cell
    /// holding a tile is among them. Nil when there is none.
    static func laidOut(_ tiles: [(image: RasterImage, x: Int, y: Int)], width: Int, height: Int) -> TileSlab? {
        guard let slab = tiles.first?.image.slabCell?.slab, slab.image.width == width, slab.image.height == height,
              slab.filledCells == tiles.count else { return nil }
        for tile in tiles {
            guard let cell = tile.image.slabCell, cell.slab === slab, cell.x == tile.x, cell.y == tile.y else { return nil }
        }
        return slab
    }

    /// The image to decode the tile at `coord` into when its header says `width × height`: its
    /// cell, when the coordinate is in the slab and the size is the cell's. (A decoder writes
    /// every pixel of a tile it decodes, and clears its target when it fails.)
    func target(for coord: TileCoord, width: Int, height: Int) -> RasterImage? {
        guard width == cellWidth, height == cellHeight, let index = cellIndex(coord) else { return nil }
        return cells[index]
    }

    /// The index in `cells` of the cell of `coord`; nil outside the slab.
    private func cellIndex(_ coord: TileCoord) -> Int? {
        guard coord.z == range.level, range.columns.contains(coord.x), range.rows.contains(coord.y) else { return nil }
        return (coord.y - range.rows.lowerBound) * range.columns.count + coord.x - range.columns.lowerBound
    }

    /// The tiles decoded for `coords` as the store keeps them: each decoded into its cell
    /// becomes a view that knows its slab. Clears the cells that hold no tile, records how many
    /// do and tells Cairo the slab's pixels changed. Called once, when decoding is done, before
    /// any tile is handed out.
    func finishDecoding(_ tiles: [StoredTile], at coords: [TileCoord]) -> [StoredTile] {
        var filled = Set<Int>()
        let kept = zip(tiles, coords).map { tile, coord -> StoredTile in
            guard case .image(let decoded) = tile.content, let index = cellIndex(coord), decoded === cells[index],
                  let cell = try? image.cellView(x: (coord.x - range.columns.lowerBound) * cellWidth,
                                                 y: (coord.y - range.rows.lowerBound) * cellHeight,
                                                 width: cellWidth, height: cellHeight, slab: self) else { return tile }
            filled.insert(index)
            return StoredTile(content: .image(cell), origin: tile.origin, provenance: tile.provenance,
                              cameFromDiskCache: tile.cameFromDiskCache)
        }
        for index in cells.indices where !filled.contains(index) { cells[index].clearPixels() }
        filledCells = filled.count
        image.markChanged()
        return kept
    }
}
