import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// One vector from the independent pyproj/mercantile fixture.
struct MercatorVector: Decodable, CustomTestStringConvertible {
    let lon: Double, lat: Double, zoom: Double
    let meters: [Double], pixel: [Double]
    let tile: [Int]?
    let quadkey: String?
    let tileBounds: [Double]?

    var testDescription: String { "\(lon),\(lat)@z\(zoom)" }

    static let all: [MercatorVector] = {
        struct File: Decodable { let vectors: [MercatorVector] }
        let data = try! Data(contentsOf: TestPaths.fixture("Geo/mercator_vectors.json"))
        return try! JSONDecoder().decode(File.self, from: data).vectors
    }()
}

@Suite struct WebMercatorTests {
    @Test("world pixels match pyproj within 1e-6 px, including zoom 18–22", arguments: MercatorVector.all)
    func worldPixelsMatchIndependentProjection(_ v: MercatorVector) {
        let p = WebMercator.worldPixel(from: LonLat(lon: v.lon, lat: v.lat), zoom: v.zoom)
        #expect(abs(p.x - v.pixel[0]) <= 1e-6, "x off by \(p.x - v.pixel[0]) px")
        #expect(abs(p.y - v.pixel[1]) <= 1e-6, "y off by \(p.y - v.pixel[1]) px")
        let m = WebMercator.meters(from: LonLat(lon: v.lon, lat: v.lat))
        #expect(abs(m.x - v.meters[0]) <= 1e-6)
        #expect(abs(m.y - v.meters[1]) <= 1e-6)
    }

    @Test("tiles, quadkeys and tile bounds match mercantile", arguments: MercatorVector.all.filter { $0.tile != nil })
    func tilesMatchMercantile(_ v: MercatorVector) throws {
        let expected = try #require(v.tile)
        let p = WebMercator.worldPixel(from: LonLat(lon: v.lon, lat: v.lat), zoom: v.zoom)
        let coord = TileCoord(z: expected[0], x: Int(floor(p.x / 256)), y: Int(floor(p.y / 256)))
        #expect([coord.z, coord.x, coord.y] == expected)
        #expect(coord.quadkey == v.quadkey)
        let m = TileMatrix.webMercator().tileExtent(level: coord.z, column: coord.x, row: coord.y)
        let sw = WebMercator.lonLat(fromMetersX: m.minX, y: m.minY), ne = WebMercator.lonLat(fromMetersX: m.maxX, y: m.maxY)
        let e = try #require(v.tileBounds)
        #expect(abs(sw.lon - e[0]) < 1e-9 && abs(sw.lat - e[1]) < 1e-9)
        #expect(abs(ne.lon - e[2]) < 1e-9 && abs(ne.lat - e[3]) < 1e-9)
    }

    @Test("pixel → lon/lat → pixel round-trips at zoom 22 within 1e-6 px")
    func roundTripAtDeepZoom() {
        for v in MercatorVector.all where v.zoom == 22 {
            let back = WebMercator.worldPixel(from: WebMercator.lonLat(from: WorldPixel(x: v.pixel[0], y: v.pixel[1]), zoom: 22),
                                              zoom: 22)
            #expect(abs(back.x - v.pixel[0]) <= 1e-6 && abs(back.y - v.pixel[1]) <= 1e-6)
        }
    }

    @Test func latitudeIsClampedToTheMercatorLimit() {
        let pole = WebMercator.worldPixel(from: LonLat(lon: 0, lat: 90), zoom: 0)
        let south = WebMercator.worldPixel(from: LonLat(lon: 0, lat: -90), zoom: 0)
        #expect(abs(pole.y) < 1e-9)
        #expect(abs(south.y - 256) < 1e-9)
    }

    @Test(arguments: [(190.0, -170.0), (-190.0, 170.0), (180.0, -180.0), (540.0, -180.0), (-0.5, -0.5)])
    func longitudeWraps(_ input: Double, _ expected: Double) {
        #expect(abs(WebMercator.wrapLongitude(input) - expected) < 1e-9)
    }
}

@Suite struct TileCoordTests {
    @Test func quadkeyKnownVectors() {
        #expect(TileCoord(z: 2, x: 1, y: 2).quadkey == "21")
        #expect(TileCoord(z: 3, x: 3, y: 5).quadkey == "213")
        #expect(TileCoord(z: 0, x: 0, y: 0).quadkey == "")
        #expect(TileCoord(quadkey: "213") == TileCoord(z: 3, x: 3, y: 5))
        #expect(TileCoord(quadkey: "2x") == nil)
    }

    @Test func tmsRowFlips() {
        #expect(TileCoord(z: 3, x: 1, y: 0).tmsY == 7)
        #expect(TileCoord(z: 10, x: 5, y: 100).tmsY == 923)
    }

    @Test func xWrapsAroundTheAntimeridian() {
        let grid = TileMatrix.webMercator()
        #expect(grid.wrappedColumn(-1, level: 2) == 3)
        #expect(grid.wrappedColumn(5, level: 2) == 1)
        #expect(grid.wrappedColumn(-9, level: 2) == 3)
    }

    @Test func parentChain() {
        #expect(TileCoord(z: 3, x: 5, y: 6).parent == TileCoord(z: 2, x: 2, y: 3))
        #expect(TileCoord(z: 0, x: 0, y: 0).parent == nil)
    }
}
