import Foundation
import GRDB
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// An MBTiles file cannot make reading it run for ever: views other than the deduplicated
/// `map`/`images` one are refused, and any query past its deadline is stopped.
@Suite struct MBTilesBoundedWorkTests {
    /// A query that never ends on its own.
    static let endless = "WITH RECURSIVE counter(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM counter)"

    /// A small SQLite file made by `statements`.
    static func file(_ statements: String, in folder: TemporaryFolder) throws -> URL {
        let url = folder.url.appendingPathComponent("hostile.mbtiles")
        let database = try DatabaseQueue(path: url.path)
        try database.write { db in try db.execute(sql: statements) }
        try database.close()
        return url
    }

    static func failure(_ url: URL) -> String? {
        do {
            _ = try MBTilesSource(spec: MBTilesSourceSpec(file: url))
            return nil
        } catch {
            return error.reason
        }
    }

    /// The 8 KB file of the report: `tiles` is a view over a recursive query.
    static func recursiveView(in folder: TemporaryFolder) throws -> URL {
        try file("""
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE VIEW tiles AS \(endless)
              SELECT n % 5 AS zoom_level, n AS tile_column, n AS tile_row, zeroblob(10) AS tile_data FROM counter;
            """, in: folder)
    }

    @Test func aTilesViewOverARecursiveQueryIsRefused() throws {
        let folder = try TemporaryFolder()
        let reason = Self.failure(try Self.recursiveView(in: folder))
        #expect(reason?.hasPrefix("'tiles' is a view, but not one over the 'map' and 'images' tables of a deduplicated MBTiles ('CREATE VIEW tiles AS WITH RECURSIVE") == true,
                "\(reason ?? "opened")")
    }

    @Test func aMetadataViewWithARecursiveQueryIsRefused() throws {
        let folder = try TemporaryFolder()
        let url = try Self.file("""
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            CREATE VIEW metadata AS \(Self.endless) SELECT 'minzoom' AS name, n AS value FROM counter;
            """, in: folder)
        #expect(Self.failure(url)?.hasPrefix("'metadata' is a view with a WITH clause") == true)
    }

    @Test func theDeduplicatedViewIsRead() throws {
        let folder = try TemporaryFolder()
        let url = try Self.file("""
            CREATE TABLE map (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_id TEXT);
            CREATE TABLE images (tile_id TEXT, tile_data BLOB);
            CREATE VIEW tiles AS SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column,
              map.tile_row AS tile_row, images.tile_data AS tile_data FROM map JOIN images ON images.tile_id = map.tile_id;
            INSERT INTO map VALUES (3, 1, 2, 'a');
            INSERT INTO images VALUES ('a', x'89504E47');
            """, in: folder)
        let source = try MBTilesSource(spec: MBTilesSourceSpec(file: url))
        #expect(source.info.nativeZoom == 3...3)
        guard case .found = source.readNow(TileCoord(z: 3, x: 1, y: 5)).outcome else {
            Issue.record("the tile was not read")
            return
        }
    }

    @Test func aQueryPastItsDeadlineIsStopped() throws {
        let folder = try TemporaryFolder()
        let url = try Self.file("CREATE TABLE t (x);", in: folder)
        let connections = try ReadOnlyConnections(path: url.path, count: 2, statementLimit: .milliseconds(200))
        for read in [connections.readFirst, connections.read] as [((Database) throws -> Int?) throws -> Int?] {
            #expect(throws: StatementDeadline.Exceeded.self) {
                try read { db in try Int.fetchOne(db, sql: "\(Self.endless) SELECT count(*) FROM counter") }
            }
            // The connection stays usable.
            #expect(try read { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
        }
    }
}
