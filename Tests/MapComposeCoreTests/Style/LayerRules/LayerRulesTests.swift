import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Fade, crossfade, fallback, missing fill, bounds and resampling, checked against colours
/// computed here from their definitions.
@Suite struct LayerRulesTests {
    static let red = RGBA(r: 255, g: 0, b: 0), blue = RGBA(r: 0, g: 0, b: 255), green = RGBA(r: 0, g: 160, b: 0)

    /// Writes solid tiles: `colors[level]` for every tile of each listed level, except `skip`.
    private func tiles(_ colors: [Int: RGBA], skip: Set<TileCoord> = [], in folder: TemporaryFolder) throws {
        for (level, color) in colors {
            let png = try TileFixtures.solidPNG(color)
            for x in 0..<(1 << level) {
                for y in 0..<(1 << level) where !skip.contains(TileCoord(z: level, x: x, y: y)) {
                    try folder.write(png, to: "t/\(level)/\(x)/\(y).png")
                }
            }
        }
    }

    private func layer(_ rules: String, levels: ClosedRange<Int>) -> String {
        """
        background: "#ffffff"
        layers:
          - {id: t, \(rules)source: {type: xyz, path: "t/{z}/{x}/{y}.png", minzoom: \(levels.lowerBound), maxzoom: \(levels.upperBound)}}
        """
    }

    /// Where tile `coord` (of the 256-px grid) shows in `viewport`, at its centre.
    private func center(of coord: TileCoord, in viewport: Viewport) -> (x: Int, y: Int) {
        let e = TileMatrix.webMercator().tileExtent(level: coord.z, column: coord.x, row: coord.y)
        let p = viewport.devicePoint(x: (e.minX + e.maxX) / 2, y: (e.minY + e.maxY) / 2)
        return (Int(p.x), Int(p.y))
    }

    @Test("fade at the midpoint of a ramp gives half the alpha", arguments: [("in: [4, 6]", 5.0), ("out: [4, 6]", 5.0)])
    func fadeMidpoint(_ ramp: String, _ zoom: Double) async throws {
        let folder = try TemporaryFolder()
        let style = try RenderHelpers.style("""
            background: "#ffffff"
            layers:
              - {id: s, fade: {\(ramp)}, source: {type: solid, color: "#ff0000"}}
            """, in: folder)
        let result = try await RenderHelpers.render(style, lat: 0, lon: 0, zoom: zoom)
        // Half of red over white: 255·0.5 + 255·0.5, 0·0.5 + 255·0.5.
        #expect(RenderHelpers.close(result.image.rgba(x: 128, y: 128), RGBA(r: 255, g: 128, b: 128), within: 1))
        #expect(abs(result.report.layers[0].opacity - 0.5) < 1e-9)
    }

    @Test func fadeFactorFollowsItsRamps() {
        let fade = ZoomFade(fadeIn: 2...4, fadeOut: 10...14)
        #expect(fade.factor(atZoom: 1) == 0 && fade.factor(atZoom: 3) == 0.5 && fade.factor(atZoom: 4) == 1)
        #expect(fade.factor(atZoom: 12) == 0.5 && fade.factor(atZoom: 14) == 0)
    }

    @Test func aLayerFadedOutIsSkippedAndSaysWhy() async throws {
        let folder = try TemporaryFolder()
        let style = try RenderHelpers.style("layers:\n  - {id: s, fade: {out: [2, 3]}, source: {type: solid}}\n", in: folder)
        let result = try await RenderHelpers.render(style, lat: 0, lon: 0, zoom: 5)
        #expect(result.report.layers[0].skipped == "faded out at zoom 5")
    }

    @Test func crossfadeAtAQuarterWeightsTheTwoLevelsThreeToOne() async throws {
        let folder = try TemporaryFolder()
        try tiles([2: Self.red, 3: Self.blue], in: folder)
        let style = try RenderHelpers.style(layer("crossfade: true, ", levels: 2...3), in: folder)
        let result = try await RenderHelpers.render(style, lat: 0, lon: 0, zoom: 2.25)
        // 0.75 · red + 0.25 · blue
        #expect(RenderHelpers.close(result.image.rgba(x: 100, y: 100), RGBA(r: 191, g: 0, b: 64), within: 1))
        let layer = result.report.layers[0]
        #expect(layer.levels == [2, 3])
        #expect(abs((layer.crossfadeWeight ?? 0) - 0.25) < 1e-9)
    }

    @Test func crossfadeLevelsOnANonHalvingGridAreWeightedInLogScale() throws {
        let matrix = try TileMatrix(identity: "t", originX: 0, originY: 0, tileWidth: 256, tileHeight: 256, levels: [
            .init(resolution: 1000, matrixWidth: 1, matrixHeight: 1), .init(resolution: 100, matrixWidth: 10, matrixHeight: 10),
        ])
        let levels = LayerPlan.crossfadeLevels(for: 316.227766, matrix: matrix, native: 0...1)
        #expect(levels.map(\.0) == [0, 1])
        #expect(abs(levels[1].1 - 0.5) < 1e-6, "halfway in log scale")
    }

    @Test func aHoleIsFilledFromItsParentAndTwoLevelsDeepFromItsGrandparent() async throws {
        let folder = try TemporaryFolder()
        let hole = TileCoord(z: 3, x: 3, y: 3), deepHole = TileCoord(z: 3, x: 4, y: 4)
        try tiles([1: Self.green, 2: Self.red, 3: Self.blue], skip: [hole, deepHole, TileCoord(z: 2, x: 2, y: 2)], in: folder)
        let style = try RenderHelpers.style(layer("", levels: 1...3), in: folder)
        let viewport = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 3, width: 1024, height: 1024)
        let result = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport)
        let p = center(of: hole, in: viewport), q = center(of: deepHole, in: viewport)
        #expect(result.image.rgba(x: p.x, y: p.y) == Self.red, "the level-2 parent")
        #expect(result.image.rgba(x: q.x, y: q.y) == Self.green, "the level-1 grandparent, the parent being absent too")
        let tiles = result.report.layers[0].tiles
        let a = try #require(tiles.first { $0.level == 3 && $0.column == 3 && $0.row == 3 })
        let b = try #require(tiles.first { $0.level == 3 && $0.column == 4 && $0.row == 4 })
        #expect(a.status == .parent && a.fallbackLevel == 2 && a.reason == "not in source")
        #expect(b.status == .parent && b.fallbackLevel == 1)
        #expect(result.report.layers[0].tilesFromParents == 2)
        #expect(result.report.diagnostics.map(\.description).contains("layer 't': 2 of 16 tiles of level 3 absent (2 drawn from other levels)"))
    }

    @Test func aHoleIsFilledFromItsChildrenWithTheirGapsFromTheParent() async throws {
        let folder = try TemporaryFolder()
        let hole = TileCoord(z: 2, x: 1, y: 1)
        // One of the hole's four children exists; the other three quarters show the parent
        // (and the child's padded edges must not spread over them).
        try tiles([1: Self.green, 2: Self.red, 3: Self.blue],
                  skip: [hole, TileCoord(z: 3, x: 3, y: 2), TileCoord(z: 3, x: 2, y: 3), TileCoord(z: 3, x: 3, y: 3)], in: folder)
        let style = try RenderHelpers.style(layer("fallback: {parents: 2, children: 1}, ", levels: 1...3), in: folder)
        let viewport = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 2, width: 1024, height: 1024)
        let result = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport)
        let present = center(of: TileCoord(z: 3, x: 2, y: 2), in: viewport)
        #expect(result.image.rgba(x: present.x, y: present.y) == Self.blue)
        for gapTile in [TileCoord(z: 3, x: 3, y: 2), TileCoord(z: 3, x: 2, y: 3), TileCoord(z: 3, x: 3, y: 3)] {
            let gap = center(of: gapTile, in: viewport)
            #expect(result.image.rgba(x: gap.x, y: gap.y) == Self.green, "the gap at \(gapTile) shows the parent")
        }
        let tile = try #require(result.report.layers[0].tiles.first { $0.level == 2 && $0.column == 1 && $0.row == 1 })
        #expect(tile.status == .children && tile.fallbackLevel == 3)
    }

    @Test("what fills a tile no fallback has", arguments: ["\"#00a000\"", "err.png"])
    func missingFill(_ missing: String) async throws {
        let folder = try TemporaryFolder()
        try folder.write(try TileFixtures.solidPNG(Self.green, size: 16), to: "err.png")
        try tiles([2: Self.red], skip: [TileCoord(z: 2, x: 1, y: 1)], in: folder)
        let style = try RenderHelpers.style(layer("fallback: {parents: 0, children: 0}, missing: \(missing), ", levels: 2...2),
                                            in: folder)
        let viewport = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 2, width: 1024, height: 1024)
        let result = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport)
        let p = center(of: TileCoord(z: 2, x: 1, y: 1), in: viewport)
        #expect(result.image.rgba(x: p.x, y: p.y) == Self.green)
        #expect(result.image.rgba(x: p.x + 200, y: p.y) == Self.red)
        let tile = try #require(result.report.layers[0].tiles.first { $0.column == 1 && $0.row == 1 })
        #expect(tile.status == .missing)
    }

    /// Counts every read a folder source makes.
    final class CountingSource: TileSource, @unchecked Sendable {
        let inner: any TileSource
        private let lock = NSLock()
        private(set) var reads: [TileCoord] = []

        init(_ inner: any TileSource) { self.inner = inner }
        var info: TileSourceInfo { inner.info }

        func fetch(_ coord: TileCoord, pixelRatio: Int) async -> TileFetch {
            lock.withLock { reads.append(coord) }
            return await inner.fetch(coord, pixelRatio: pixelRatio)
        }
    }

    private func countingStyle(_ yaml: String, in folder: TemporaryFolder) throws -> (MapStyle, CountingSource) {
        let loaded = try RenderHelpers.style(yaml, in: folder)
        let counting = CountingSource(loaded.layers[0].source)
        let layer = MapLayer(spec: loaded.layers[0].spec, source: counting)
        return (MapStyle(document: loaded.document, layers: [layer], origin: loaded.origin), counting)
    }

    @Test func aParentStandingInForFourHolesIsReadOnceAndMissesAreNotAskedAgain() async throws {
        let folder = try TemporaryFolder()
        let holes: Set<TileCoord> = [TileCoord(z: 3, x: 2, y: 2), TileCoord(z: 3, x: 3, y: 2), TileCoord(z: 3, x: 2, y: 3),
                                     TileCoord(z: 3, x: 3, y: 3)]
        try tiles([2: Self.red, 3: Self.blue], skip: holes, in: folder)
        let (style, counting) = try countingStyle(layer("fallback: {parents: 1, children: 0}, ", levels: 2...3), in: folder)
        let store = TileStore()
        let renderer = MapRenderer(style: style, options: RenderOptions(attribution: false), store: store)
        let viewport = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 3, width: 2048, height: 2048)
        let first = try await renderer.render(viewport)
        #expect(first.report.layers[0].tilesFromParents == 4)
        #expect(counting.reads.filter { $0 == TileCoord(z: 2, x: 1, y: 1) }.count == 1, "the shared parent, read once")
        #expect(counting.reads.count == 64 + 1, "each tile of level 3 once, plus the parent")
        #expect(store.statistics.decoded == 60 + 1)
        _ = try await renderer.render(viewport)
        #expect(counting.reads.count == 65, "the second render asks nothing again: tiles in memory, holes remembered")
    }

    @Test func nothingIsRequestedOutsideTheBoundsAndTheReportSaysSo() async throws {
        let folder = try TemporaryFolder()
        try tiles([3: Self.blue], in: folder)
        let (style, counting) = try countingStyle(layer("bounds: [0, 0, 40, 40], ", levels: 3...3), in: folder)
        let viewport = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 3, width: 2048, height: 2048)
        let result = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport)
        let grid = TileMatrix.webMercator()
        let box = GeoBounds(west: 0, south: 0, east: 40, north: 40).meters
        for coord in counting.reads {
            let e = grid.tileExtent(level: coord.z, column: coord.x, row: coord.y)
            #expect(e.intersection(box) != nil, "tile \(coord) lies outside the bounds")
        }
        #expect(counting.reads.count == 1)
        #expect(result.report.layers[0].tilesOutsideBounds == 63)
        #expect(result.report.layers[0].tiles.filter { $0.status == .outsideBounds }.count == 63)
    }

    @Test func boundsAcrossTheAntimeridianDrawOnBothSides() async throws {
        let folder = try TemporaryFolder()
        let style = try RenderHelpers.style("""
            background: "#ffffff"
            layers:
              - {id: s, bounds: [170, -20, -170, 20], source: {type: solid, color: "#0000ff"}}
            """, in: folder)
        let viewport = try Viewport(center: LonLat(lon: 180, lat: 0), zoom: 3, width: 1024, height: 512)
        let image = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport).image
        for (lon, inside) in [(175.0, true), (-175.0, true), (165.0, false), (-165.0, false)] {
            let p = viewport.devicePoint(LonLat(lon: lon, lat: 0))
            #expect(image.rgba(x: Int(p.x), y: Int(p.y)) == (inside ? Self.blue : .white), "at \(lon)°")
        }
    }

    @Test("nearest resampling keeps hard edges; bilinear blends them", arguments: [Resampling.nearest, .bilinear])
    func resampling(_ resampling: Resampling) async throws {
        let folder = try TemporaryFolder()
        try folder.write(try ImageEncoder.png(try TileFixtures.halfSplit(left: .black, right: .white)), to: "t/0/0/0.png")
        let style = try RenderHelpers.style(layer("resampling: \(resampling.rawValue), ", levels: 0...0), in: folder)
        let result = try await RenderHelpers.render(style, lat: 0, lon: 0, zoom: 3.3, width: 300, height: 50)
        var greys = 0
        for x in 0..<300 where (20...235).contains(result.image.rgba(x: x, y: 25).r) { greys += 1 }
        if resampling == .nearest { #expect(greys == 0) } else { #expect(greys > 3) }
    }
}
