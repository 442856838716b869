import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Level choice, tile limits and blocks of a layer's plan.
@Suite struct LayerPlanTests {
    private func plan(_ yaml: String, _ viewport: Viewport, mosaicSide: Int = LayerPlan.maxMosaicSide) throws -> LayerPlan {
        let folder = try TemporaryFolder()
        let style = try RenderHelpers.style(yaml, in: folder)
        return LayerPlan(layer: style.layers[0], viewport: viewport, mosaicSide: mosaicSide)
    }

    @Test func aFractionalZoomDrawsTheFinerLevelScaledDown() throws {
        let viewport = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 5.3, width: 400, height: 300)
        let p = try plan("layers:\n  - {id: s, source: {type: solid, color: red}}\n", viewport)
        #expect(p.level == 6 && p.passes[0].status == .exact)
    }

    @Test func levelsOutsideTheNativeRangeAreOverOrUnderzoomed() throws {
        let folder = try TemporaryFolder()
        try folder.write(try TileFixtures.solidPNG(.black), to: "t/4/0/0.png")
        let style = try RenderHelpers.style("""
            layers:
              - {id: a, source: {type: xyz, path: "t/{z}/{x}/{y}.png", minzoom: 2, maxzoom: 4}}
            """, in: folder)
        let deep = LayerPlan(layer: style.layers[0], viewport: try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 7, width: 256, height: 256))
        #expect(deep.level == 4 && deep.passes[0].status == .overzoomed)
        let shallow = LayerPlan(layer: style.layers[0], viewport: try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 1, width: 256, height: 256))
        #expect(shallow.level == 2 && shallow.passes[0].status == .underzoomed)
    }

    /// The documented maximum size used to skip every layer as "far below the source's levels".
    @Test func theLargestOutputDrawsItsLayersInBlocksThatFitCairo() throws {
        let viewport = try Viewport(center: LonLat(lon: 10, lat: 50), zoom: 8, width: 16384, height: 16384)
        let p = try plan("layers:\n  - {id: s, source: {type: solid, color: red}}\n", viewport)
        #expect(p.skip == nil)
        #expect(p.passes[0].blocks.count > 1)
        #expect(p.passes[0].blocks.allSatisfy { $0.range.columns.count * 256 <= LayerPlan.maxMosaicSide && $0.range.rows.count * 256 <= LayerPlan.maxMosaicSide })
        let tiles = p.passes[0].blocks.reduce(0) { $0 + $1.tiles.count }
        #expect(tiles == 65 * 65)
    }

    @Test func fiveHundredTwelvePixelTilesAtAWideShortOutputStayUnderCairosLimit() throws {
        let folder = try TemporaryFolder()
        try folder.write(try TileFixtures.solidPNG(.black, size: 512), to: "t/0/0/0.png")
        let style = try RenderHelpers.style("layers:\n  - {id: a, source: {type: xyz, path: \"t/{z}/{x}/{y}.png\", tile-size: 512, maxzoom: 20}}\n",
                                            in: folder)
        let viewport = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 12, width: 16384, height: 200)
        let p = LayerPlan(layer: style.layers[0], viewport: viewport)
        #expect(p.skip == nil)
        #expect(p.passes[0].blocks.allSatisfy { $0.range.columns.count * 512 <= 32767 })
    }

    @Test func deepNativeLevelsAtZoomZeroAreSkippedNotTrapped() throws {
        let viewport = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 0, width: 3000, height: 3000)
        let folder = try TemporaryFolder()
        try folder.write(try TileFixtures.solidPNG(.black), to: "t/30/0/0.png")
        let style = try RenderHelpers.style("layers:\n  - {id: a, source: {type: xyz, path: \"t/{z}/{x}/{y}.png\", minzoom: 30, maxzoom: 30}}\n",
                                            in: folder)
        let p = LayerPlan(layer: style.layers[0], viewport: viewport)
        guard case .tooManyTiles(let count, let level, _, _) = p.skip else {
            Issue.record("expected the layer to be skipped for too many tiles, got \(String(describing: p.skip))")
            return
        }
        #expect(level == 30 && count > 1 << 40)
    }
}
