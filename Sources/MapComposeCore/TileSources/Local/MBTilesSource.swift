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
/// Metadata `minzoom`, `maxzoom`, `bounds` and `attribution` serve as defaults. Metadata values
/// may be stored as text, integers or real numbers (tools differ); zoom levels must be whole
/// numbers in 0…30.
public final class MBTilesSource: TileSource {
    public let info: TileSourceInfo
    /// The file's `format` metadata, if present (`png`, `jpg`, …).
    public let format: String?
    let file: URL
    let connections: ReadOnlyConnections
    /// Some files store `zoom_level` as text, which an integer never equals: then both are asked for.
    let textZoomLevels: Bool

    /// The deepest level a source may declare.
    static let levels = 0...30

    public init(spec: MBTilesSourceSpec) throws(MBTilesError) {
        let path = spec.file.path
        file = spec.file
        func failure(_ reason: String) -> MBTilesError { MBTilesError(file: path, reason: reason) }
        let status = PathStatus(spec.file)
        guard status == .file else {
            throw failure(status == .missing ? "no such MBTiles file" : status.problem(expecting: "an MBTiles file") ?? "cannot be used")
        }
        let connections: ReadOnlyConnections
        let contents: Contents
        do {
            connections = try ReadOnlyConnections(path: path)
            contents = try connections.readFirst { db in try Contents(db, path: path) }
        } catch let error as MBTilesError {
            throw error
        } catch let error as StatementDeadline.Exceeded {
            throw failure(error.description)
        } catch let error as DatabaseError {
            throw failure("cannot read as SQLite: \(error.message ?? error.description)")
        } catch {
            throw failure("cannot open: \(PathStatus.describe(error))")
        }
        self.connections = connections
        format = contents.text("format")
        textZoomLevels = contents.textZoomLevels
        let native: ClosedRange<Int>
        if let override = spec.nativeZoom {
            guard Self.levels.contains(override.lowerBound), Self.levels.contains(override.upperBound) else {
                throw failure("minzoom/maxzoom \(override.lowerBound)…\(override.upperBound) is outside 0…30")
            }
            native = override
        } else {
            native = try contents.nativeZoom()
        }
        let matrix = TileMatrix.webMercator(tileSize: spec.tileSize)
        info = TileSourceInfo(identity: "mbtiles:\(spec.file.standardizedFileURL.resolvingSymlinksInPath().path)@\(matrix.identity)",
                              matrix: matrix, nativeZoom: native,
                              bounds: contents.text("bounds").flatMap(Self.parseBounds),
                              attribution: contents.text("attribution"))
    }

    /// Parses the `W,S,E,N` metadata bounds; nil when malformed.
    static func parseBounds(_ text: String) -> GeoBounds? {
        let parts = text.split(separator: ",").compactMap { Double($0.trimmingSpaces) }
        guard parts.count == 4 else { return nil }
        let bounds = GeoBounds(west: parts[0], south: parts[1], east: parts[2], north: parts[3])
        return bounds.isValidBox && !bounds.crossesAntimeridian ? bounds : nil
    }

    public func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
        await TileFileReader.perform { self.readNow(coord) }
    }

    public var localReader: LocalReader? {
        { coord, _ in self.readNow(coord) }
    }

    /// Reads the tile at `coord` from the next connection in turn, blocking the caller.
    func readNow(_ coord: TileCoord) -> TileFetch {
        let origin = "\(file.path)#\(coord.z)/\(coord.x)/\(coord.tmsY)"
        do {
            let levels: StatementArguments = textZoomLevels ? [coord.z, String(coord.z)] : [coord.z]
            let sql = "SELECT tile_data FROM tiles WHERE zoom_level IN (\(textZoomLevels ? "?, ?" : "?")) "
                + "AND tile_column = ? AND tile_row = ?"
            let value = try connections.read { db in
                try DatabaseValue.fetchOne(db, sql: sql, arguments: levels + [coord.x, coord.tmsY])
            }
            switch value?.storage {
            case nil, .null?:
                return TileFetch(.missing(.absent), origin: origin)
            case .blob(let data)?:
                return TileFetch(.found(.encoded(data)), origin: origin)
            case .string(let text)?:
                return TileFetch(.found(.encoded(Data(text.utf8))), origin: origin)
            case .int64?, .double?:
                return TileFetch(.missing(.readFailed("tile_data holds a number, not image bytes")), origin: origin)
            }
        } catch {
            return TileFetch(.missing(.readFailed(String(describing: error))), origin: origin)
        }
    }
}

extension MBTilesSource {
    /// What the file says about itself: its metadata and, when needed, the levels it holds.
    struct Contents {
        let path: String
        /// Metadata values by lower-cased name, as stored.
        let metadata: [String: DatabaseValue]
        /// The lowest and highest `zoom_level` in `tiles`, as stored (NULL when empty).
        let storedLevels: (low: DatabaseValue, high: DatabaseValue)
        /// True when some `zoom_level` is stored as text.
        var textZoomLevels: Bool {
            if case .string = storedLevels.high.storage { return true }
            return false
        }

        init(_ db: Database, path: String) throws {
            self.path = path
            try MBTilesSchema.check(db, path: path)
            var metadata: [String: DatabaseValue] = [:]
            if try db.tableExists("metadata") || db.viewExists("metadata") {
                for row in try Row.fetchAll(db, sql: "SELECT name, value FROM metadata") {
                    if let name = Self.text(row[0] as DatabaseValue) {
                        metadata[name.lowercased()] = row[1] as DatabaseValue
                    }
                }
            }
            self.metadata = metadata
            // With the (zoom_level, …) index both are single lookups; integers sort before text.
            let row = try Row.fetchOne(db, sql: "SELECT MIN(zoom_level), MAX(zoom_level) FROM tiles")
            storedLevels = (row?[0] ?? .null, row?[1] ?? .null)
        }

        /// A metadata value as text (numbers are spelled out; a BLOB counts only as UTF-8).
        func text(_ name: String) -> String? {
            metadata[name].flatMap(Self.text)
        }

        static func text(_ value: DatabaseValue) -> String? {
            switch value.storage {
            case .null: return nil
            case .string(let text): return text
            case .int64(let number): return String(number)
            case .double(let number): return String(number)
            case .blob(let data): return String(data: data, encoding: .utf8)
            }
        }

        /// A whole number stored as an integer, a whole real or numeric text; nil when NULL.
        static func wholeNumber(_ value: DatabaseValue) -> Int?? {
            switch value.storage {
            case .null: return .some(nil)
            case .int64(let number): return Int(exactly: number).map { .some($0) }
            case .double(let number): return Int(exactly: number).map { .some($0) }
            case .string(let text):
                let trimmed = text.trimmingSpaces
                if let number = Int(trimmed) { return .some(number) }
                return Double(trimmed).flatMap { Int(exactly: $0) }.map { .some($0) }
            case .blob: return nil
            }
        }

        static func show(_ value: DatabaseValue) -> String {
            switch value.storage {
            case .null: return "NULL"
            case .int64(let number): return String(number)
            case .double(let number): return String(number)
            case .string(let text): return "'\(text.prefix(40))'"
            case .blob(let data): return "a BLOB of \(data.count) bytes"
            }
        }

        /// The metadata zoom level `name`, or nil when absent.
        func metadataLevel(_ name: String) throws(MBTilesError) -> Int? {
            guard let value = metadata[name] else { return nil }
            guard let number = Self.wholeNumber(value) else {
                throw MBTilesError(file: path, reason: "metadata \(name) is \(Self.show(value)), expected a whole number")
            }
            return number
        }

        /// The levels `tiles` holds, or nil when it is empty.
        func levelsPresent() throws(MBTilesError) -> ClosedRange<Int>? {
            var bounds: [Int] = []
            for value in [storedLevels.low, storedLevels.high] {
                guard let number = Self.wholeNumber(value) else {
                    throw MBTilesError(file: path, reason: "tiles.zoom_level holds \(Self.show(value)), expected whole numbers")
                }
                if let number { bounds.append(number) }
            }
            guard bounds.count == 2 else { return nil }
            return min(bounds[0], bounds[1])...max(bounds[0], bounds[1])
        }

        /// Levels from metadata minzoom/maxzoom, else from the tiles present, checked against 0…30.
        func nativeZoom() throws(MBTilesError) -> ClosedRange<Int> {
            let metaMin = try metadataLevel("minzoom"), metaMax = try metadataLevel("maxzoom")
            func describe(_ present: ClosedRange<Int>?) -> String {
                present.map { "the tiles table holds levels \($0.lowerBound)…\($0.upperBound)" } ?? "the tiles table is empty"
            }
            for (name, value) in [("minzoom", metaMin), ("maxzoom", metaMax)] {
                if let value, !MBTilesSource.levels.contains(value) {
                    let present = (try? levelsPresent()).map(describe) ?? "its zoom_level values are unreadable"
                    throw MBTilesError(file: path, reason: "metadata \(name) \(value) is out of range 0…30 (\(present)); "
                                       + "set minzoom/maxzoom on the source to choose the levels to use")
                }
            }
            let present = metaMin == nil || metaMax == nil ? try levelsPresent() : nil
            if let present, !MBTilesSource.levels.contains(present.lowerBound) || !MBTilesSource.levels.contains(present.upperBound) {
                throw MBTilesError(file: path, reason: "\(describe(present)), outside 0…30, and the metadata does not say "
                                   + "which to use; set minzoom/maxzoom on the source")
            }
            let low = metaMin ?? present?.lowerBound ?? 0
            let high = metaMax ?? present?.upperBound ?? max(low, TileSourceInfo.defaultNativeLevels.upperBound)
            guard low <= high else {
                let lowSource = metaMin == nil ? "lowest level present" : "metadata"
                let highSource = metaMax == nil ? "highest level present" : "metadata"
                throw MBTilesError(file: path, reason: "minzoom \(low) (\(lowSource)) is above maxzoom \(high) (\(highSource)); "
                                   + "set minzoom/maxzoom on the source")
            }
            return low...high
        }
    }
}
