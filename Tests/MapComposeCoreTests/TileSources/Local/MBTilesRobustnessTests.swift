import Foundation
import GRDB
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// MBTiles files as real tools write them (numbers as INTEGER, odd storage classes, deep or
/// broken zoom levels): each opens with the right levels or fails with the file and field named.
@Suite struct MBTilesRobustnessTests {
    /// An MBTiles file built with raw SQL: `metadata` rows and `tiles` rows given as SQL literals.
    static func file(metadata: [(String, String)], tiles: [String] = [], zoomType: String = "INTEGER",
                     in folder: TemporaryFolder) throws -> URL {
        let url = folder.url.appendingPathComponent("raw.mbtiles")
        let database = try DatabaseQueue(path: url.path)
        try database.write { db in
            try db.execute(sql: """
                CREATE TABLE metadata (name TEXT, value);
                CREATE TABLE tiles (zoom_level \(zoomType), tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
                CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
                """)
            for (name, value) in metadata {
                try db.execute(sql: "INSERT INTO metadata (name, value) VALUES ('\(name)', \(value))")
            }
            for row in tiles {
                try db.execute(sql: "INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (\(row))")
            }
        }
        try database.close()
        return url
    }

    static func open(_ url: URL, nativeZoom: ClosedRange<Int>? = nil) throws(MBTilesError) -> MBTilesSource {
        try MBTilesSource(spec: MBTilesSourceSpec(file: url, nativeZoom: nativeZoom))
    }

    /// The reason an open fails, or nil when it succeeds.
    static func failure(_ url: URL) -> String? {
        do {
            _ = try open(url)
            return nil
        } catch {
            #expect(error.file == url.path)
            return error.reason
        }
    }

    @Test func integerAndRealMetadataAreZoomLevels() throws {
        let folder = try TemporaryFolder()
        let url = try Self.file(metadata: [("minzoom", "2"), ("maxzoom", "5.0"), ("format", "'png'")], in: folder)
        let source = try Self.open(url)
        #expect(source.info.nativeZoom == 2...5)
        #expect(source.format == "png")
    }

    @Test func numericTextMetadataIsAccepted() throws {
        let folder = try TemporaryFolder()
        let url = try Self.file(metadata: [("minzoom", "' 1 '"), ("maxzoom", "'7'"), ("attribution", "42")], in: folder)
        let source = try Self.open(url)
        #expect(source.info.nativeZoom == 1...7)
        #expect(source.info.attribution == "42")
    }

    @Test(arguments: [
        ("X'0102'", "metadata minzoom is a BLOB of 2 bytes, expected a whole number"),
        ("'three'", "metadata minzoom is 'three', expected a whole number"),
        ("2.5", "metadata minzoom is 2.5, expected a whole number"),
    ])
    func unusableMetadataNamesTheField(_ value: String, _ reason: String) throws {
        let folder = try TemporaryFolder()
        let url = try Self.file(metadata: [("minzoom", value), ("maxzoom", "4")], in: folder)
        #expect(Self.failure(url) == reason)
    }

    @Test func textZoomLevelsInTilesAreRead() async throws {
        let folder = try TemporaryFolder()
        let png = try TileFixtures.solidPNG(.white, size: 8)
        let url = try Self.file(metadata: [], tiles: ["'3', 1, 1, X'\(png.map { String(format: "%02x", $0) }.joined())'"],
                                zoomType: "TEXT", in: folder)
        let source = try Self.open(url)
        #expect(source.info.nativeZoom == 3...3)
        let fetched = await source.fetch(TileCoord(z: 3, x: 1, y: 6), pixelRatio: 1)
        guard case .found(.encoded(let data)) = fetched.outcome else {
            Issue.record("tile stored under a text zoom level not found: \(fetched.outcome)")
            return
        }
        #expect(data == png)
    }

    @Test func nonNumericZoomLevelsInTilesNameTheColumn() throws {
        let folder = try TemporaryFolder()
        let url = try Self.file(metadata: [], tiles: ["'deep', 0, 0, X'00'"], zoomType: "TEXT", in: folder)
        #expect(Self.failure(url) == "tiles.zoom_level holds 'deep', expected whole numbers")
    }

    @Test(arguments: [
        ("62", "63", "metadata minzoom 62 is out of range 0…30 (the tiles table holds levels 2…3)"),
        ("70", "99", "metadata minzoom 70 is out of range 0…30 (the tiles table holds levels 2…3)"),
        ("0", "99", "metadata maxzoom 99 is out of range 0…30 (the tiles table holds levels 2…3)"),
        ("-1", "3", "metadata minzoom -1 is out of range 0…30 (the tiles table holds levels 2…3)"),
    ])
    func deepMetadataLevelsAreRejectedWithTheLevelsPresent(_ low: String, _ high: String, _ reason: String) throws {
        let folder = try TemporaryFolder()
        let url = try Self.file(metadata: [("minzoom", low), ("maxzoom", high)],
                                tiles: ["2, 0, 0, X'00'", "3, 0, 0, X'00'"], in: folder)
        let found = try #require(Self.failure(url))
        #expect(found.hasPrefix(reason), "\(found)")
        #expect(found.contains("set minzoom/maxzoom on the source"))
        #expect(throws: Never.self, "a style's own levels replace the metadata") { try Self.open(url, nativeZoom: 2...3) }
    }

    @Test func levelsPresentOutsideTheRangeAreRejected() throws {
        let folder = try TemporaryFolder()
        let url = try Self.file(metadata: [], tiles: ["5, 0, 0, X'00'", "40, 0, 0, X'00'"], in: folder)
        let found = try #require(Self.failure(url))
        #expect(found.hasPrefix("the tiles table holds levels 5…40, outside 0…30"), "\(found)")
    }

    @Test func minzoomAboveMaxzoomIsRejected() throws {
        let folder = try TemporaryFolder()
        let url = try Self.file(metadata: [("minzoom", "6"), ("maxzoom", "2")], in: folder)
        #expect(Self.failure(url)?.hasPrefix("minzoom 6 (metadata) is above maxzoom 2 (metadata)") == true)
        let other = try TemporaryFolder()
        let onlyMin = try Self.file(metadata: [("minzoom", "25")], in: other)
        #expect(try Self.open(onlyMin).info.nativeZoom == 25...25, "an empty file with only minzoom 25 does not trap")
    }

    @Test func overridesOutsideTheRangeAreRejected() throws {
        let folder = try TemporaryFolder()
        let url = try Self.file(metadata: [], in: folder)
        #expect(throws: MBTilesError(file: url.path, reason: "minzoom/maxzoom 0…31 is outside 0…30")) {
            try Self.open(url, nativeZoom: 0...31)
        }
    }

    @Test func aFolderOrAMissingFileIsNamedAsSuch() throws {
        let folder = try TemporaryFolder()
        #expect(Self.failure(folder.url) == "is a folder, not an MBTiles file")
        #expect(Self.failure(folder.url.appendingPathComponent("none.mbtiles")) == "no such MBTiles file")
    }

    @Test func tileDataOfEveryStorageClassIsAResult() async throws {
        let folder = try TemporaryFolder()
        let url = try Self.file(metadata: [], tiles: ["0, 0, 0, 7", "1, 0, 0, NULL", "1, 1, 1, 'text'"], in: folder)
        let source = try Self.open(url)
        let number = await source.fetch(TileCoord(z: 0, x: 0, y: 0), pixelRatio: 1).outcome
        let null = await source.fetch(TileCoord(z: 1, x: 0, y: 1), pixelRatio: 1).outcome
        let text = await source.fetch(TileCoord(z: 1, x: 1, y: 0), pixelRatio: 1).outcome
        guard case .missing(.readFailed(let reason)) = number, case .missing(.absent) = null,
              case .found(.encoded(let bytes)) = text else {
            Issue.record("unexpected outcomes: \(number), \(null), \(text)")
            return
        }
        #expect(reason == "tile_data holds a number, not image bytes")
        #expect(bytes == Data("text".utf8))
    }

    @Test func readsUseSeveralConnectionsInTurn() async throws {
        let folder = try TemporaryFolder()
        let png = try TileFixtures.solidPNG(.white, size: 8)
        let writer = try MBTilesWriter(file: folder.url.appendingPathComponent("w.mbtiles"), metadata: ["minzoom": "4", "maxzoom": "4"])
        for x in 0..<16 { try writer.put(TileCoord(z: 4, x: x, y: 3), data: png) }
        let source = try Self.open(folder.url.appendingPathComponent("w.mbtiles"))
        let handedOut = try (0..<8).map { _ in try source.connections.read { db in ObjectIdentifier(db) } }
        #expect(Set(handedOut).count == 4, "four connections, each handed out twice")
        let found = await withTaskGroup(of: Bool.self) { group in
            for x in 0..<16 {
                group.addTask {
                    if case .found = await source.fetch(TileCoord(z: 4, x: x, y: 3), pixelRatio: 1).outcome { return true }
                    return false
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(found == 16)
    }
}
