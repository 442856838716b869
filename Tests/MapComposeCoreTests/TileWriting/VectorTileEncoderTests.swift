import Foundation
import Testing
@testable import MapComposeCore

/// Tiles written by `VectorTileEncoder` read back through `VectorTile` as written: layers in
/// order, properties of every kind, ids, and geometry cleaned and wound as MVT 2.1 says.
@Suite struct VectorTileEncoderTests {
    typealias Point = VectorTileGeometry.Point

    static func p(_ x: Int32, _ y: Int32) -> SIMD2<Int32> { SIMD2(x, y) }

    static func decoded(_ encoder: VectorTileEncoder) throws -> VectorTile {
        try VectorTile(Data(encoder.encoded()))
    }

    @Test func layersPropertiesAndIdsReadBack() throws {
        var encoder = VectorTileEncoder(extent: 512)
        #expect(encoder.isEmpty)
        let properties: [(key: String, value: VectorTileValue)] = [
            ("name", .string("Île")), ("area", .double(12.5)), ("rank", .int(-3)), ("pop", .int(70_000_000_000)),
            ("code", .uint(UInt64.max)), ("capital", .bool(true)), ("coastal", .bool(false)),
        ]
        encoder.add(layer: "places", properties: properties, shape: .points([Self.p(10, 20)]), id: 7)
        encoder.add(layer: "roads", properties: [("name", .string("Île"))], shape: .lines([[Self.p(0, 0), Self.p(5, 5)]]))
        encoder.add(layer: "places", properties: [("rank", .int(-3)), ("name", .string("Other"))],
                    shape: .points([Self.p(1, 2), Self.p(3, 4)]), id: 8)
        #expect(!encoder.isEmpty)
        let tile = try Self.decoded(encoder)
        #expect(tile.layers.map(\.name) == ["places", "roads"])
        let places = try #require(tile.layer("places"))
        #expect(places.extent == 512 && places.version == 2)
        #expect(places.features.map(\.id) == [7, 8])
        #expect(places.features.map(\.type) == [.point, .point])
        let first = try places.properties(of: places.features[0])
        #expect(first.count == properties.count)
        for (key, value) in properties { #expect(first[key] == value, "\(key)") }
        #expect(try places.properties(of: places.features[1]) == ["rank": .int(-3), "name": .string("Other")])
        // Keys and values are kept once per layer.
        #expect(places.keys == ["name", "area", "rank", "pop", "code", "capital", "coastal"])
        #expect(places.values.count == 8)
        #expect(try places.geometry(of: places.features[0]) == VectorTileGeometry(points: [Point(x: 10, y: 20)]))
        #expect(try places.geometry(of: places.features[1]).points == [Point(x: 1, y: 2), Point(x: 3, y: 4)])
        let roads = try #require(tile.layer("roads"))
        #expect(roads.features.map(\.id) == [nil])
        #expect(try roads.geometry(of: roads.features[0]).lines == [[Point(x: 0, y: 0), Point(x: 5, y: 5)]])
    }

    @Test func valuesOfOneNumberButDifferentKindsStayApart() throws {
        var encoder = VectorTileEncoder()
        encoder.add(layer: "l", properties: [("a", .int(1)), ("b", .uint(1)), ("c", .double(1)), ("d", .double(-0.0)),
                                             ("e", .double(0)), ("f", .int(1))], shape: .points([Self.p(0, 0)]))
        let layer = try #require(try Self.decoded(encoder).layer("l"))
        #expect(layer.values == [.int(1), .uint(1), .double(1), .double(-0.0), .double(0)])
        let properties = try layer.properties(of: layer.features[0])
        #expect(properties["f"] == .int(1) && properties["d"]?.number?.sign == .minus)
    }

    @Test func linesLoseDuplicatePointsAndDegenerateLinesAreDropped() throws {
        var encoder = VectorTileEncoder()
        encoder.add(layer: "l", properties: [],
                    shape: .lines([[Self.p(0, 0), Self.p(0, 0), Self.p(10, 0), Self.p(10, 0), Self.p(10, 10)],
                                   [Self.p(5, 5), Self.p(5, 5)], [Self.p(-20, 4000), Self.p(4100, -3)]]))
        encoder.add(layer: "l", properties: [], shape: .lines([[Self.p(1, 1)], [Self.p(2, 2), Self.p(2, 2)]]))
        encoder.add(layer: "gone", properties: [], shape: .points([]))
        let tile = try Self.decoded(encoder)
        #expect(tile.layers.map(\.name) == ["l"])
        let layer = tile.layers[0]
        #expect(layer.features.count == 1)
        #expect(try layer.geometry(of: layer.features[0]).lines == [
            [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10)], [Point(x: -20, y: 4000), Point(x: 4100, y: -3)],
        ])
    }

    @Test func polygonsAreWoundAsTheSpecSaysAndClosedWithClosePath() throws {
        // An exterior ring counter-clockwise on screen (negative area with y down), closed by
        // repeating its first point; a hole wound the same way, not closed; a second polygon
        // already clockwise, with a duplicate point.
        let exterior = [Self.p(0, 0), Self.p(0, 100), Self.p(100, 100), Self.p(100, 0), Self.p(0, 0)]
        let hole = [Self.p(20, 20), Self.p(20, 40), Self.p(40, 40), Self.p(40, 20)]
        let second = [Self.p(200, 0), Self.p(300, 0), Self.p(300, 0), Self.p(300, 100)]
        var encoder = VectorTileEncoder()
        encoder.add(layer: "water", properties: [], shape: .polygons([[exterior, hole], [second]]), id: 1)
        let layer = try #require(try Self.decoded(encoder).layer("water"))
        let feature = layer.features[0]
        #expect(feature.type == .polygon)
        let polygons = try layer.geometry(of: feature).polygons
        #expect(polygons.count == 2 && polygons[0].count == 2 && polygons[1].count == 1)
        let areas = polygons.map { $0.map(VectorTileGeometry.signedArea) }
        #expect(areas == [[20_000, -800], [10_000]])
        // Rings hold each point once, plus the closing point the decoder adds for ClosePath.
        #expect(polygons[0].map(\.count) == [5, 5] && polygons[1][0].count == 4)
        #expect(polygons[1][0] == [Point(x: 200, y: 0), Point(x: 300, y: 0), Point(x: 300, y: 100), Point(x: 200, y: 0)])
        // The geometry commands end each ring with ClosePath (7, count 1) after 1 MoveTo and
        // 3 LineTo of 2 parameters each: no repeated first point.
        let commands = try #require(VectorTileCommands(.polygons([[exterior]])))
        #expect(commands.integers.count == 1 + 2 + 1 + 6 + 1 && commands.integers.last == 7 | 1 << 3)
    }

    @Test func degenerateRingsAndPolygonsAreDropped() throws {
        let square = [Self.p(0, 0), Self.p(10, 0), Self.p(10, 10), Self.p(0, 10)]
        let flat = [Self.p(0, 0), Self.p(5, 5), Self.p(10, 10)]
        let twoPoints = [Self.p(1, 1), Self.p(2, 2), Self.p(1, 1)]
        var encoder = VectorTileEncoder()
        // A flat exterior takes its (valid) hole with it; degenerate holes of a valid exterior go.
        encoder.add(layer: "a", properties: [], shape: .polygons([[flat, square], [square, twoPoints, flat]]))
        encoder.add(layer: "a", properties: [], shape: .polygons([[twoPoints], [flat], []]))
        let layer = try #require(try Self.decoded(encoder).layer("a"))
        #expect(layer.features.count == 1)
        let polygons = try layer.geometry(of: layer.features[0]).polygons
        #expect(polygons.count == 1 && polygons[0].count == 1)
        #expect(VectorTileGeometry.signedArea(polygons[0][0]) == 200)
        #expect(VectorTileCommands(.lines([[Self.p(3, 3), Self.p(3, 3)]])) == nil)
    }
}
