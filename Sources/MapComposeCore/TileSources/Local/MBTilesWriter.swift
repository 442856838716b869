import Foundation
import GRDB

/// Writes an MBTiles 1.3 file (TMS rows) — for fixtures, benchmarks and exports.
public final class MBTilesWriter {
    let database: DatabaseQueue

    /// Creates (replacing) an MBTiles file with the given metadata.
    public init(file: URL, metadata: [String: String]) throws {
        try? FileManager.default.removeItem(at: file)
        database = try DatabaseQueue(path: file.path)
        try database.write { db in
            try db.execute(sql: """
                CREATE TABLE metadata (name TEXT, value TEXT);
                CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
                CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
                """)
            for (name, value) in metadata.sorted(by: { $0.key < $1.key }) {
                try db.execute(sql: "INSERT INTO metadata (name, value) VALUES (?, ?)", arguments: [name, value])
            }
        }
    }

    /// Stores `data` as the tile at `coord` (XYZ numbering; stored as a TMS row).
    public func put(_ coord: TileCoord, data: Data) throws {
        try database.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)",
                           arguments: [coord.z, coord.x, coord.tmsY, data])
        }
    }
}
