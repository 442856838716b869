import Foundation
import GRDB

/// Why an MBTiles file cannot serve tiles.
public struct MBTilesError: Error, CustomStringConvertible, Equatable {
    public let file: String
    public let reason: String

    public var description: String { "\(reason) (\(file))" }
}

/// Tiles from an MBTiles 1.x SQLite file (TMS rows), opened read-only.
///
/// Metadata `minzoom`, `maxzoom`, `bounds` and `attribution` serve as defaults.
public final class MBTilesSource: TileSource {
    public let info: TileSourceInfo
    /// The file's `format` metadata, if present (`png`, `jpg`, …).
    public let format: String?
    let file: URL
    let database: DatabaseQueue

    public init(spec: MBTilesSourceSpec) throws(MBTilesError) {
        let path = spec.file.path
        file = spec.file
        var configuration = Configuration()
        configuration.readonly = true
        let database: DatabaseQueue
        let metadata: [String: String]
        let levels: ClosedRange<Int>?
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
            (metadata, levels) = try database.read { db in
                guard try db.tableExists("tiles") || db.viewExists("tiles") else {
                    throw MBTilesError(file: path, reason: "not an MBTiles file: it has no 'tiles' table")
                }
                var metadata: [String: String] = [:]
                if try db.tableExists("metadata") || db.viewExists("metadata") {
                    for row in try Row.fetchAll(db, sql: "SELECT name, value FROM metadata") {
                        if let name = row["name"] as String?, let value = row["value"] as String? {
                            metadata[name.lowercased()] = value
                        }
                    }
                }
                var levels: ClosedRange<Int>?
                if metadata["minzoom"] == nil || metadata["maxzoom"] == nil,
                   let row = try Row.fetchOne(db, sql: "SELECT MIN(zoom_level) AS lo, MAX(zoom_level) AS hi FROM tiles"),
                   let lo = row["lo"] as Int?, let hi = row["hi"] as Int? {
                    levels = lo...hi
                }
                return (metadata, levels)
            }
        } catch let error as MBTilesError {
            throw error
        } catch let error as DatabaseError {
            throw MBTilesError(file: path, reason: "cannot read as SQLite: \(error.message ?? error.description)")
        } catch {
            throw MBTilesError(file: path, reason: "cannot open: \(error)")
        }
        self.database = database
        format = metadata["format"]
        let metaMin = metadata["minzoom"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let metaMax = metadata["maxzoom"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        var native = levels ?? TileSourceInfo.defaultNativeLevels
        if let metaMin, let metaMax, metaMin <= metaMax { native = metaMin...metaMax }
        if let override = spec.nativeZoom { native = override }
        let matrix = TileMatrix.webMercator(tileSize: spec.tileSize)
        info = TileSourceInfo(identity: "mbtiles:\(spec.file.standardizedFileURL.resolvingSymlinksInPath().path)@\(matrix.identity)",
                              matrix: matrix, nativeZoom: native,
                              bounds: metadata["bounds"].flatMap(Self.parseBounds),
                              attribution: metadata["attribution"])
    }

    /// Parses the `W,S,E,N` metadata bounds; nil when malformed.
    static func parseBounds(_ text: String) -> GeoBounds? {
        let parts = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, parts[0] < parts[2], parts[1] < parts[3] else { return nil }
        return GeoBounds(west: parts[0], south: parts[1], east: parts[2], north: parts[3])
    }

    public func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        let origin = "\(file.path)#\(coord.z)/\(coord.x)/\(coord.tmsY)"
        do {
            let data = try await database.read { db in
                try Data.fetchOne(db, sql: "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                                  arguments: [coord.z, coord.x, coord.tmsY])
            }
            guard let data else { return TileFetch(.missing(.absent), origin: origin) }
            return TileFetch(.found(.encoded(data)), origin: origin)
        } catch {
            return TileFetch(.missing(.readFailed(String(describing: error))), origin: origin)
        }
    }
}
