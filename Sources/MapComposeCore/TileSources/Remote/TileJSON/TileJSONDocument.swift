import Foundation

/// The parts of a TileJSON document (2.x / 3.0) a raster layer uses.
public struct TileJSONDocument: Decodable, Sendable, Equatable {
    public var tiles: [String]
    public var scheme: String?
    public var minzoom: Int?
    public var maxzoom: Int?
    /// `[west, south, east, north]` in degrees.
    public var bounds: [Double]?
    public var attribution: String?
    /// Pixel size of the tiles (`tileSize`, a common extension; 256 when absent).
    public var tileSize: Int?

    enum CodingKeys: String, CodingKey {
        case tiles, scheme, minzoom, maxzoom, bounds, attribution, tileSize
        case tileSizeSnake = "tile_size"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        tiles = try container.decode([String].self, forKey: .tiles)
        scheme = try container.decodeIfPresent(String.self, forKey: .scheme)
        minzoom = try Self.wholeNumber(container, .minzoom, in: 0...30, expected: "a whole number within 0…30")
        maxzoom = try Self.wholeNumber(container, .maxzoom, in: 0...30, expected: "a whole number within 0…30")
        bounds = try container.decodeIfPresent([Double].self, forKey: .bounds)
        attribution = try container.decodeIfPresent(String.self, forKey: .attribution)
        tileSize = try Self.wholeNumber(container, .tileSize, in: 256...512, expected: "256 or 512")
            ?? Self.wholeNumber(container, .tileSizeSnake, in: 256...512, expected: "256 or 512")
    }

    /// The number at `key` when it is a whole number within `range`, nil when absent; otherwise
    /// an error naming the key, the value and what is `expected`.
    private static func wholeNumber(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys,
                                    in range: ClosedRange<Int>, expected: String) throws -> Int? {
        guard let value = try container.decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard value.rounded() == value, Double(range.lowerBound) <= value, value <= Double(range.upperBound) else {
            throw TileJSONError("'\(key.stringValue)' is \(value.exactText): expected \(expected)")
        }
        return Int(value)
    }

    /// Reads a document; the error says which field is wrong.
    public static func parse(_ data: Data) throws(TileJSONError) -> TileJSONDocument {
        do {
            return try JSONDecoder().decode(TileJSONDocument.self, from: data)
        } catch let error as TileJSONError {
            throw error
        } catch let DecodingError.keyNotFound(key, _) {
            throw TileJSONError("the document has no '\(key.stringValue)'")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw TileJSONError("'\(field)' has the wrong type")
        } catch {
            throw TileJSONError("not a JSON document")
        }
    }
}

/// Why a TileJSON document cannot describe a layer.
public struct TileJSONError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    /// The document could not be had because no server answered.
    public let unreachable: Bool
    public init(_ description: String, unreachable: Bool = false) {
        self.description = description
        self.unreachable = unreachable
    }
}
