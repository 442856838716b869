import Foundation
import Testing
@testable import MapComposeCore

@Suite struct ViewportTests {
    static let grid = TileMatrix.webMercator()

    @Test func deviceSizeAndZoomFollowScale() throws {
        let v = try Viewport(center: LonLat(lon: 10, lat: 50), zoom: 4, width: 320, height: 240, scale: 2)
        #expect(v.deviceWidth == 640 && v.deviceHeight == 480)
        #expect(v.deviceZoom == 5)
        #expect(Self.grid.level(forResolution: v.resolution) == 5)
        #expect(Self.grid.level(forResolution: v.resolution * 2) == 4, "@2x tiles: one level up")
        #expect(Self.grid.level(forResolution: v.resolution, in: 0...3) == 3)
        #expect(TileMatrix.webMercator(tileSize: 512).level(forResolution: v.resolution) == 4)
    }

    /// The coarsest level at least as fine as the output, a level up to 1.15× coarser counting
    /// as fine enough: level = ceil(zoom + log2(scale) − log2(1.15)).
    @Test("level choice", arguments: [(3.3, 1.0, 4), (3.2, 1.0, 3), (3.5, 1.0, 4), (5.25, 1.0, 6), (5.3, 1.0, 6),
                                      (5.2, 1.0, 5), (2.7, 2.0, 4), (6.49, 1.0, 7), (6.0, 1.0, 6), (0.0, 1.0, 0)])
    func levelChoice(_ zoom: Double, _ scale: Double, _ level: Int) throws {
        let v = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: zoom, width: 100, height: 100, scale: scale)
        #expect(Self.grid.level(forResolution: v.resolution) == level)
        #expect(level == Int(ceil(v.deviceZoom - log2(TileMatrix.stretchFactor))) || zoom == 0)
    }

    @Test func centerIsInTheMiddleOfTheOutput() throws {
        let v = try Viewport(center: LonLat(lon: -0.12, lat: 51.5), zoom: 12.5, width: 801, height: 600)
        let d = v.devicePoint(LonLat(lon: -0.12, lat: 51.5))
        #expect(abs(d.x - 400.5) < 1e-6 && abs(d.y - 300) < 1e-6)
        let expected = 2 * WebMercator.originShift / (256 * exp2(12.5))
        #expect(abs(v.resolution - expected) < 1e-12)
    }

    @Test func coveringTilesAcrossTheAntimeridian() throws {
        let v = try Viewport(center: LonLat(lon: 180, lat: 0), zoom: 2, width: 512, height: 256)
        let range = try #require(Self.grid.covering(v.extent, level: 2))
        #expect(range.columns == 3...4)
        #expect(range.rows == 1...2)
        #expect(Set(range.columns.map { Self.grid.wrappedColumn($0, level: 2) }) == [3, 0])
    }

    @Test func coveringTilesStayInsideTheWorldVertically() throws {
        let v = try Viewport(center: LonLat(lon: 0, lat: 80), zoom: 1, width: 600, height: 600)
        let range = try #require(Self.grid.covering(v.extent, level: 1))
        #expect(range.rows == 0...1)
    }

    @Test func fittingABoundingBoxPicksTheLargestWholeZoom() throws {
        let bounds = GeoBounds(west: -11, south: 49, east: 2, north: 61)
        let v = try Viewport.fitting(bounds, width: 800, height: 600)
        #expect(v.zoom == 5)
        let m = v.extent
        let sw = WebMercator.meters(from: LonLat(lon: -11, lat: 49))
        let ne = WebMercator.meters(from: LonLat(lon: 2, lat: 61))
        #expect(m.minX <= sw.x && m.minY <= sw.y && m.maxX >= ne.x && m.maxY >= ne.y)
        let v6 = try Viewport(center: v.center, zoom: 6, width: 800, height: 600)
        let m6 = v6.extent
        #expect(!(m6.minX <= sw.x && m6.minY <= sw.y && m6.maxX >= ne.x && m6.maxY >= ne.y))
    }

    @Test func fittingWithPaddingAndFractionalZoomTouchesTheEdges() throws {
        let bounds = GeoBounds(west: -11, south: 49, east: 2, north: 61)
        let v = try Viewport.fitting(bounds, width: 800, height: 600, padding: 50, fractionalZoom: true)
        let nw = v.devicePoint(LonLat(lon: -11, lat: 61)), se = v.devicePoint(LonLat(lon: 2, lat: 49))
        let gaps = [nw.x, nw.y, 800 - se.x, 600 - se.y]
        #expect(gaps.allSatisfy { $0 >= 50 - 1e-6 })
        #expect(gaps.contains { abs($0 - 50) < 1e-6 })
    }

    @Test func fittingABoxAcrossTheAntimeridian() throws {
        let v = try Viewport.fitting(GeoBounds(west: 170, south: -20, east: -170, north: 0), width: 400, height: 400)
        #expect(abs(abs(v.center.lon) - 180) < 1e-9)
        #expect(v.zoom >= 3)
    }

    @Test func absurdSizesAreRejected() {
        #expect(throws: ViewportError.tooLarge(width: 20000, height: 100)) {
            try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 1, width: 20000, height: 100)
        }
        #expect(throws: ViewportError.tooLarge(width: 16400, height: 200)) {
            try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 1, width: 8200, height: 100, scale: 2)
        }
        #expect(throws: ViewportError.self) {
            try Viewport(center: LonLat(lon: 0, lat: 0), zoom: -1, width: 100, height: 100)
        }
    }

    /// Sizes near Int.max used to trap while building the "too large" error.
    @Test func sizesNearIntMaxAreReportedNotTrapped() {
        #expect(throws: ViewportError.tooLarge(width: Double(Int.max), height: 1)) {
            try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 1, width: Int.max, height: 1)
        }
        #expect(throws: ViewportError.self) {
            try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 1, width: 4_611_686_018_427_387_904, height: 1, scale: 2)
        }
        let message = ViewportError.tooLarge(width: Double(Int.max), height: 1).description
        #expect(message.contains("over the limit of 16384"))
    }

    @Test func anOutputUnderOnePixelIsTooSmallNotTooLarge() {
        #expect(throws: ViewportError.tooSmall(width: 0, height: 0)) {
            try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 1, width: 1, height: 1, scale: 0.4)
        }
        #expect(ViewportError.tooSmall(width: 0, height: 0).description.contains("under 1 pixel"))
    }

    /// `2 * padding` used to overflow for a padding near Int.max.
    @Test func hugeAndNegativePaddingsAreReported() {
        let uk = GeoBounds(west: -11, south: 49, east: 2, north: 61)
        #expect(throws: ViewportError.paddingTooLarge(padding: Int.max, width: 800, height: 600)) {
            try Viewport.fitting(uk, width: 800, height: 600, padding: Int.max)
        }
        #expect(throws: ViewportError.negativePadding(-5)) {
            try Viewport.fitting(uk, width: 800, height: 600, padding: -5)
        }
        #expect(ViewportError.negativePadding(-5).description == "padding -5 must be 0 or more")
        #expect(throws: ViewportError.paddingTooLarge(padding: 300, width: 800, height: 600)) {
            try Viewport.fitting(uk, width: 800, height: 600, padding: 300)
        }
        #expect((try? Viewport.fitting(uk, width: 800, height: 600, padding: 299)) != nil)
    }
}
