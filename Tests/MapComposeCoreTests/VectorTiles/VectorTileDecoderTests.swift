import CZlib
import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// The decoder reads a tile made from Natural Earth by mapbox-vector-tile (PyPI) exactly as that
/// package's own decoder reads it (Tests/Fixtures/VectorTiles, scripts/fixtures/make_vector_tiles.py),
/// and refuses broken tiles with a message instead of trapping.
@Suite struct VectorTileDecoderTests {
    static func point(_ value: Any) -> VectorTileGeometry.Point {
        let pair = value as! [Int]
        return VectorTileGeometry.Point(x: Int32(pair[0]), y: Int32(pair[1]))
    }

    static func line(_ value: Any) -> [VectorTileGeometry.Point] { (value as! [Any]).map(point) }

    /// The expected geometry in this decoder's shape, from the reference decoder's GeoJSON.
    static func expected(_ geometry: [String: Any]) -> VectorTileGeometry {
        let coordinates = geometry["coordinates"]!
        var result = VectorTileGeometry(points: [], lines: [], polygons: [])
        switch geometry["type"] as! String {
        case "Point": result.points = [point(coordinates)]
        case "MultiPoint": result.points = line(coordinates)
        case "LineString": result.lines = [line(coordinates)]
        case "MultiLineString": result.lines = (coordinates as! [Any]).map(line)
        case "Polygon": result.polygons = [(coordinates as! [Any]).map(line)]
        case "MultiPolygon": result.polygons = (coordinates as! [Any]).map { ($0 as! [Any]).map(line) }
        default: Issue.record("unexpected type \(geometry["type"]!)")
        }
        return result
    }

    static func same(_ value: VectorTileValue, _ expected: Any) -> Bool {
        switch value {
        case .string(let text): return text == expected as? String
        case .bool(let flag): return (expected as? Bool) == flag
        default: return value.number == (expected as? NSNumber)?.doubleValue
        }
    }

    @Test func decodesAsTheReferenceDecoderDoes() throws {
        let tile = try VectorTile(try Data(contentsOf: TestPaths.fixture("VectorTiles/ne-2-2-1.mvt")))
        let reference = try JSONSerialization.jsonObject(with: Data(contentsOf: TestPaths.fixture("VectorTiles/ne-2-2-1.json")))
            as! [String: [String: Any]]
        #expect(Set(tile.layers.map(\.name)) == Set(reference.keys))
        var compared = 0
        for layer in tile.layers {
            let expected = reference[layer.name]!
            #expect(layer.extent == expected["extent"] as? Int && layer.version == expected["version"] as? Int)
            let features = expected["features"] as! [[String: Any]]
            #expect(layer.features.count == features.count, "\(layer.name)")
            for (feature, want) in zip(layer.features, features) {
                #expect(feature.id == (want["id"] as? NSNumber).map { UInt64($0.intValue) }, "\(layer.name)")
                let properties = try layer.properties(of: feature)
                let wanted = want["properties"] as! [String: Any]
                #expect(Set(properties.keys) == Set(wanted.keys))
                for (key, value) in properties {
                    #expect(Self.same(value, wanted[key]!), "\(layer.name) \(key): \(value) vs \(wanted[key]!)")
                }
                #expect(try layer.geometry(of: feature) == Self.expected(want["geometry"] as! [String: Any]),
                        "\(layer.name) feature \(feature.id ?? 0)")
                compared += 1
            }
        }
        #expect(compared == 306)
    }

    // MARK: broken tiles

    /// Protocol buffer bytes written by hand.
    static func varint(_ value: UInt64) -> [UInt8] {
        var bytes: [UInt8] = [], rest = value
        repeat {
            bytes.append(UInt8(rest & 0x7F) | (rest >= 0x80 ? 0x80 : 0))
            rest >>= 7
        } while rest > 0
        return bytes
    }

    static func field(_ number: Int, _ bytes: [UInt8]) -> [UInt8] {
        varint(UInt64(number << 3 | 2)) + varint(UInt64(bytes.count)) + bytes
    }

    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    /// A tile of one layer `l` with one feature of `type` whose geometry is `commands`.
    static func tile(type: Int, commands: [UInt64], tags: [UInt64] = [], keys: [String] = []) -> Data {
        let feature = varint(3 << 3) + varint(UInt64(type)) + field(4, commands.flatMap(varint)) + field(2, tags.flatMap(varint))
        let layer = field(1, Array("l".utf8)) + field(2, feature) + keys.flatMap { field(3, Array($0.utf8)) } + varint(15 << 3) + varint(2)
        return Data(field(3, layer))
    }

    static func geometryError(type: Int, _ commands: [UInt64]) throws -> String? {
        let tile = try VectorTile(Self.tile(type: type, commands: commands))
        let layer = try #require(tile.layer("l"))
        do {
            _ = try layer.geometry(of: layer.features[0])
            return nil
        } catch {
            return error.description
        }
    }

    @Test func brokenGeometryIsAnErrorNotATrap() throws {
        let moveTo: UInt64 = 1 | 1 << 3, lineTo2: UInt64 = 2 | 2 << 3, close: UInt64 = 7 | 1 << 3
        #expect(try Self.geometryError(type: 2, [moveTo, 2]) == "bad geometry: a command's parameters run past the end of the geometry")
        #expect(try Self.geometryError(type: 2, [lineTo2, 2, 2, 4, 4]) == "bad geometry: LineTo before any MoveTo")
        #expect(try Self.geometryError(type: 2, [moveTo, 0, 0, 5 | 1 << 3, 1, 1]) == "bad geometry: unknown command 5")
        #expect(try Self.geometryError(type: 2, [moveTo, 1 << 40, 0]) == "bad geometry: parameter 1099511627776 is wider than 32 bits")
        #expect(try Self.geometryError(type: 3, [close]) == "bad geometry: ClosePath without an open ring")
        #expect(try Self.geometryError(type: 3, [moveTo, 0, 0, 7 | 2 << 3]) == "bad geometry: ClosePath with a count of 2")
        #expect(try Self.geometryError(type: 2, [UInt64(2) | UInt64(0) << 3]) == "bad geometry: LineTo with a count of 0")
    }

    @Test func farCoordinatesAreClampedAndUnclosedRingsClosed() throws {
        let moveTo: UInt64 = 1 | 1 << 3
        // Deltas of ±2^31 - 1 again and again walk far past any tile: held at ±2^28.
        let far = Self.zigzag(Int64(Int32.max))
        let tile = try VectorTile(Self.tile(type: 2, commands: [moveTo, far, far, 2 | 3 << 3, far, far, far, far, far, far]))
        let layer = try #require(tile.layer("l"))
        let line = try layer.geometry(of: layer.features[0]).lines[0]
        #expect(line.last == VectorTileGeometry.Point(x: 1 << 28, y: 1 << 28))
        // A square without ClosePath is still a polygon, closed.
        let square = try VectorTile(Self.tile(type: 3, commands: [moveTo, 0, 0, 2 | 3 << 3, Self.zigzag(10), 0, 0, Self.zigzag(10),
                                                                  Self.zigzag(-10), 0]))
        let polygon = try square.layers[0].geometry(of: square.layers[0].features[0]).polygons
        #expect(polygon.count == 1 && polygon[0][0].count == 5 && polygon[0][0].first == polygon[0][0].last)
    }

    @Test func brokenMessagesNameWhatIsWrong() throws {
        // A layer whose declared length runs past the tile.
        #expect(throws: VectorTileError.malformed("a field of 100 bytes at byte 2 runs past the end of its message")) {
            try VectorTile(Data([0x1A, 100, 1, 2, 3]))
        }
        // A group wire type.
        #expect(throws: VectorTileError.self) { try VectorTile(Data([0x1B, 0])) }
        // A tag naming a key the layer does not have.
        let tile = try VectorTile(Self.tile(type: 1, commands: [9, 0, 0], tags: [5, 0], keys: ["a"]))
        #expect(throws: VectorTileError.self) { try tile.layers[0].properties(of: tile.layers[0].features[0]) }
        // A layer without a name.
        #expect(throws: VectorTileError.malformed("a layer has no name")) { try VectorTile(Data(Self.field(3, Self.varint(15 << 3) + [2]))) }
    }

    @Test func aTileThatInflatesPast64MBIsRefused() throws {
        // 100 MB of zeros gzip'd (gzip header via deflateInit2 with 16 + 15 window bits) is about 100 KB.
        var stream = z_stream()
        #expect(deflateInit2_(&stream, 9, Z_DEFLATED, 16 + 15, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        var input = [UInt8](repeating: 0, count: 100 << 20)
        var output = [UInt8](repeating: 0, count: 1 << 20)
        let written: Int = input.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(output.count)
                _ = deflate(&stream, Z_FINISH)
                return output.count - Int(stream.avail_out)
            }
        }
        deflateEnd(&stream)
        let bomb = Data(output.prefix(written))
        #expect(Gzip.isCompressed(bomb) && bomb.count < 1 << 20)
        #expect(throws: VectorTileError.malformed("gzip: inflates to more than 67108864 bytes")) { try VectorTile(bomb) }
    }
}
