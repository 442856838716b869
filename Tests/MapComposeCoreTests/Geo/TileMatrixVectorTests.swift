import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// One grid of `Tests/Fixtures/Geo/grid_vectors.json`, written by
/// `scripts/fixtures/make_grid_vectors.py` from MapProxy's grid module (an independent
/// implementation). Metres in EPSG:3857; origin = top-left corner; rows grow south.
struct GridVector: Decodable, Sendable {
    struct Level: Decodable, Sendable {
        let resolution: Double
        let matrixWidth: Int
        let matrixHeight: Int
        /// The level's columns span exactly the world's width from −180° (derived from the
        /// definition by the script, not a MapProxy notion).
        let wrapsAroundWorld: Bool
    }

    /// An output resolution and the level MapProxy's `closest_level` draws for it (the
    /// fixture's `level` field, a plain "coarsest level within 1.15×" rule, is not used: it
    /// differs from MapProxy only where levels lie closer together than 1.15×).
    struct LevelCase: Decodable, Sendable {
        let resolution: Double
        let range: [Int]?
        let mapproxyLevel: Int
        let note: String
    }

    struct Extent: Decodable, Sendable {
        let level: Int
        let column: Int
        let row: Int
        let minX: Double
        let minY: Double
        let maxX: Double
        let maxY: Double
    }

    struct Block: Decodable, Sendable, Equatable {
        let columns: [Int]
        let rows: [Int]
    }

    /// A bbox and level, and the tiles that cover it. `expected` is what `covering` must
    /// return (nil: none); `mapproxy` holds MapProxy's raw, unclamped ranges. Where
    /// `differsFromMapProxy`, MapProxy's 1/10-pixel shrink leaves out a tile the bbox enters by
    /// less than that, and `expected` keeps it.
    struct Covering: Decodable, Sendable {
        let bbox: [Double]
        let level: Int
        let mapproxy: Block
        let expected: Block?
        let differsFromMapProxy: Bool
        let note: String
    }

    let identity: String
    let standardWebMercator: Bool
    let originX: Double
    let originY: Double
    let tileWidth: Int
    let tileHeight: Int
    let levels: [Level]
    let levelCases: [LevelCase]
    let tileExtents: [Extent]
    let coverings: [Covering]

    /// The grid built from the vector's definition.
    func matrix() throws -> TileMatrix {
        try TileMatrix(identity: identity, originX: originX, originY: originY,
                       tileWidth: tileWidth, tileHeight: tileHeight,
                       levels: levels.map {
                           TileMatrix.Level(resolution: $0.resolution, matrixWidth: $0.matrixWidth,
                                            matrixHeight: $0.matrixHeight)
                       })
    }

    static let all: [GridVector] = {
        struct File: Decodable { let grids: [GridVector] }
        let data = try! Data(contentsOf: TestPaths.fixture("Geo/grid_vectors.json"))
        return try! JSONDecoder().decode(File.self, from: data).grids
    }()
}

/// A vector case together with the grid it belongs to (for parameterised tests).
struct GridCase<Value: Sendable>: Sendable, CustomTestStringConvertible {
    let grid: GridVector
    let value: Value
    let label: String

    var testDescription: String { "\(grid.identity): \(label)" }
}

@Suite struct TileMatrixVectorTests {
    static let levelCases = GridVector.all.flatMap { g in
        g.levelCases.map { c in
            GridCase(grid: g, value: c, label: "\(c.resolution) m/px\(c.range.map { " in \($0)" } ?? "") (\(c.note))")
        }
    }

    static let extents = GridVector.all.flatMap { g in
        g.tileExtents.map { e in GridCase(grid: g, value: e, label: "\(e.level)/\(e.column)/\(e.row)") }
    }

    static let coverings = GridVector.all.flatMap { g in
        g.coverings.map { c in GridCase(grid: g, value: c, label: "level \(c.level), \(c.note)") }
    }
    static let plainCoverings = coverings.filter { !$0.value.differsFromMapProxy }
    static let subPixelCoverings = coverings.filter { $0.value.differsFromMapProxy }

    @Test("the fixture has the grids and cases it promises")
    func fixtureIsComplete() {
        let names = Set(GridVector.all.map(\.identity))
        #expect(names.isSuperset(of: ["webmercator-256", "webmercator-512", "arcgis-nonhalving-512",
                                      "custom-origin-512", "close-levels-512x256"]))
        #expect(Self.levelCases.count >= 400)
        #expect(Self.levelCases.contains { $0.grid.identity == "close-levels-512x256" }, "levels closer than 1.15×")
        #expect(Self.extents.count >= 200)
        #expect(Self.plainCoverings.count >= 250)
    }

    @Test("grid definitions from MapProxy are valid TileMatrix values", arguments: GridVector.all.map(\.identity))
    func definitionsAreValid(_ identity: String) throws {
        let g = try #require(GridVector.all.first { $0.identity == identity })
        let m = try g.matrix()
        #expect(m.identity == g.identity)
        #expect(m.levels.count == g.levels.count)
        #expect(m.levelRange == 0...(g.levels.count - 1))
        for level in m.levelRange {
            #expect(m.wrapsAroundWorld(level: level) == g.levels[level].wrapsAroundWorld, "level \(level)")
            #expect(abs(m.tileSpanX(level: level) - Double(g.tileWidth) * g.levels[level].resolution) <= 1e-6)
            #expect(abs(m.tileSpanY(level: level) - Double(g.tileHeight) * g.levels[level].resolution) <= 1e-6)
        }
    }

    @Test("TileMatrix.webMercator(tileSize:) equals MapProxy's standard grids",
          arguments: GridVector.all.filter(\.standardWebMercator).map(\.identity))
    func standardGridsMatch(_ identity: String) throws {
        let g = try #require(GridVector.all.first { $0.identity == identity })
        let m = TileMatrix.webMercator(tileSize: g.tileWidth)
        #expect(m.identity == g.identity)
        #expect(abs(m.originX - g.originX) <= 1e-6 && abs(m.originY - g.originY) <= 1e-6)
        #expect(m.tileWidth == g.tileWidth && m.tileHeight == g.tileHeight)
        #expect(m.levels.count == g.levels.count)
        for (level, expected) in g.levels.enumerated() where level < m.levels.count {
            let l = m.levels[level]
            #expect(abs(l.resolution - expected.resolution) <= expected.resolution * 1e-12, "level \(level)")
            #expect(l.matrixWidth == expected.matrixWidth && l.matrixHeight == expected.matrixHeight, "level \(level)")
        }
    }

    /// Every case, including grids whose levels lie closer together than the stretch factor,
    /// where an exact (or nearer) level wins over a coarser one within the stretch.
    @Test("level choice matches MapProxy's closest_level (stretch 1.15)", arguments: levelCases)
    func levelMatchesMapProxy(_ c: GridCase<GridVector.LevelCase>) throws {
        let range = c.value.range.map { $0[0]...$0[1] }
        let m = try c.grid.matrix()
        #expect(m.level(forResolution: c.value.resolution, in: range) == c.value.mapproxyLevel)
        if c.grid.standardWebMercator {
            let builtIn = TileMatrix.webMercator(tileSize: c.grid.tileWidth)
            #expect(builtIn.level(forResolution: c.value.resolution, in: range) == c.value.mapproxyLevel)
        }
    }

    @Test("tile extents match MapProxy's tile_bbox within 1e-6 m", arguments: extents)
    func tileExtentsMatch(_ c: GridCase<GridVector.Extent>) throws {
        let e = c.value
        let r = try c.grid.matrix().tileExtent(level: e.level, column: e.column, row: e.row)
        #expect(abs(r.minX - e.minX) <= 1e-6, "minX off by \(r.minX - e.minX) m")
        #expect(abs(r.minY - e.minY) <= 1e-6, "minY off by \(r.minY - e.minY) m")
        #expect(abs(r.maxX - e.maxX) <= 1e-6, "maxX off by \(r.maxX - e.maxX) m")
        #expect(abs(r.maxY - e.maxY) <= 1e-6, "maxY off by \(r.maxY - e.maxY) m")
    }

    @Test("covering tiles match MapProxy's get_affected_level_tiles", arguments: plainCoverings)
    func coveringMatchesMapProxy(_ c: GridCase<GridVector.Covering>) throws {
        try checkCovering(c)
    }

    /// MapProxy shrinks the bbox by 1/10 pixel before it looks for tiles; TileMatrix keeps any
    /// tile the area really overlaps (beyond a 1e-7-tile rounding tolerance).
    @Test("covering keeps a tile the area enters by less than 0.1 px", arguments: subPixelCoverings)
    func coveringKeepsSubPixelTiles(_ c: GridCase<GridVector.Covering>) throws {
        try checkCovering(c)
    }

    private func checkCovering(_ c: GridCase<GridVector.Covering>) throws {
        let b = c.value.bbox
        let area = MetersRect(minX: b[0], minY: b[1], maxX: b[2], maxY: b[3])
        let range = try c.grid.matrix().covering(area, level: c.value.level)
        guard let expected = c.value.expected else {
            #expect(range == nil, "expected no tiles, got \(String(describing: range))")
            return
        }
        let got = try #require(range, "expected columns \(expected.columns), rows \(expected.rows), got none")
        #expect(got.level == c.value.level)
        #expect(got.columns == expected.columns[0]...expected.columns[1], "MapProxy raw: \(c.value.mapproxy)")
        #expect(got.rows == expected.rows[0]...expected.rows[1], "MapProxy raw: \(c.value.mapproxy)")
    }
}
