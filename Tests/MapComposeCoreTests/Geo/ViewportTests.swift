import Foundation
import Testing
@testable import MapComposeCore

@Suite struct ViewportTests {
    @Test func deviceSizeAndZoomFollowScale() throws {
        let v = try Viewport(center: LonLat(lon: 10, lat: 50), zoom: 4, width: 320, height: 240, scale: 2)
        #expect(v.deviceWidth == 640 && v.deviceHeight == 480)
        #expect(v.deviceZoom == 5)
        #expect(v.tileLevel(in: 0...22) == 5)
        #expect(v.tileLevel(in: 0...22, pixelRatio: 2) == 4)
        #expect(v.tileLevel(in: 0...3) == 3)
    }

    @Test("level is round(zoom + log2 scale)", arguments: [(3.3, 1.0, 3), (3.5, 1.0, 4), (5.25, 1.0, 5), (2.7, 2.0, 4), (6.49, 1.0, 6)])
    func levelChoice(_ zoom: Double, _ scale: Double, _ level: Int) throws {
        let v = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: zoom, width: 100, height: 100, scale: scale)
        #expect(v.tileLevel(in: 0...22) == level)
    }

    @Test func centerIsInTheMiddleOfTheOutput() throws {
        let v = try Viewport(center: LonLat(lon: -0.12, lat: 51.5), zoom: 12.5, width: 801, height: 600)
        let atLevel12 = WebMercator.worldPixel(from: LonLat(lon: -0.12, lat: 51.5), zoom: 12)
        let d = v.devicePoint(worldX: atLevel12.x, worldY: atLevel12.y, level: 12)
        #expect(abs(d.x - 400.5) < 1e-6 && abs(d.y - 300) < 1e-6)
        #expect(v.scaleFactor(forLevel: 12) == exp2(0.5))
    }

    @Test func coveringTilesAcrossTheAntimeridian() throws {
        let v = try Viewport(center: LonLat(lon: 180, lat: 0), zoom: 2, width: 512, height: 256)
        let tiles = v.coveringTiles(level: 2)
        #expect(Set(tiles.map(\.x)) == [3, 4])
        #expect(Set(tiles.map(\.y)) == [1, 2])
        #expect(Set(tiles.map(\.wrapped.x)) == [3, 0])
    }

    @Test func coveringTilesStayInsideTheWorldVertically() throws {
        let v = try Viewport(center: LonLat(lon: 0, lat: 80), zoom: 1, width: 600, height: 600)
        let tiles = v.coveringTiles(level: 1)
        #expect(tiles.allSatisfy { $0.y >= 0 && $0.y <= 1 })
    }

    @Test func fittingABoundingBoxPicksTheLargestWholeZoom() throws {
        let bounds = GeoBounds(west: -11, south: 49, east: 2, north: 61)
        let v = try Viewport.fitting(bounds, width: 800, height: 600)
        #expect(v.zoom == 5)
        let m = v.metersBounds
        let sw = WebMercator.meters(from: LonLat(lon: -11, lat: 49))
        let ne = WebMercator.meters(from: LonLat(lon: 2, lat: 61))
        #expect(m.minX <= sw.x && m.minY <= sw.y && m.maxX >= ne.x && m.maxY >= ne.y)
        let v6 = try Viewport(center: v.center, zoom: 6, width: 800, height: 600)
        let m6 = v6.metersBounds
        #expect(!(m6.minX <= sw.x && m6.minY <= sw.y && m6.maxX >= ne.x && m6.maxY >= ne.y))
    }

    @Test func fittingWithPaddingAndFractionalZoomTouchesTheEdges() throws {
        let bounds = GeoBounds(west: -11, south: 49, east: 2, north: 61)
        let v = try Viewport.fitting(bounds, width: 800, height: 600, padding: 50, fractionalZoom: true)
        let nw = WebMercator.worldPixel(from: LonLat(lon: -11, lat: 61), zoom: v.deviceZoom)
        let se = WebMercator.worldPixel(from: LonLat(lon: 2, lat: 49), zoom: v.deviceZoom)
        let o = v.originWorldPixel
        let gaps = [nw.x - o.x, nw.y - o.y, o.x + 800 - se.x, o.y + 600 - se.y]
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
}
