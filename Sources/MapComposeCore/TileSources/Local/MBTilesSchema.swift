import GRDB

/// The shapes of an MBTiles file that are read: `tiles` a table, or the view over the `map` and
/// `images` tables that deduplicating tools (mbutil, MapTiler, tilelive) write; `metadata`, if
/// present, a table or a view. No view may hold a `WITH` clause: a recursive query there would
/// run for ever (the `StatementDeadline` stops what else may be slow).
enum MBTilesSchema {
    static func check(_ db: Database, path: String) throws {
        guard let tiles = try entry("tiles", in: db) else {
            throw MBTilesError(file: path, reason: "not an MBTiles file: it has no 'tiles' table")
        }
        if tiles.isView {
            guard try db.tableExists("map"), try db.tableExists("images"),
                  tiles.words.contains("map"), tiles.words.contains("images"), !tiles.words.contains("with") else {
                throw MBTilesError(file: path, reason: "'tiles' is a view, but not one over the 'map' and 'images' tables of "
                                   + "a deduplicated MBTiles (\(tiles.excerpt)); only a 'tiles' table or such a view is read")
            }
        }
        if let metadata = try entry("metadata", in: db), metadata.isView, metadata.words.contains("with") {
            throw MBTilesError(file: path, reason: "'metadata' is a view with a WITH clause (\(metadata.excerpt)); "
                               + "only a 'metadata' table or a plain view is read")
        }
    }

    /// A table or view in the schema, with the words of its SQL.
    private struct Entry {
        let isView: Bool
        let sql: String

        var words: Set<Substring> {
            Set(sql.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "_") })
        }

        /// The start of its SQL, enough to recognise it.
        var excerpt: String {
            let flat = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            return flat.count > 80 ? "'\(flat.prefix(80))…'" : "'\(flat)'"
        }
    }

    private static func entry(_ name: String, in db: Database) throws -> Entry? {
        let row = try Row.fetchOne(db, sql: "SELECT type, sql FROM sqlite_master WHERE name = ? COLLATE NOCASE "
                                   + "AND type IN ('table', 'view') ORDER BY type = 'table' DESC LIMIT 1", arguments: [name])
        return row.map { Entry(isView: ($0["type"] as String?) == "view", sql: $0["sql"] ?? "") }
    }
}
