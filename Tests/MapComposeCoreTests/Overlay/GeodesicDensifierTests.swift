import Foundation
import Testing
@testable import MapComposeCore

/// Geodesics filled in to the pixel tolerance: the drawn line follows the exact geodesic, and
/// steps too short to bend get no points at all.
@Suite struct GeodesicDensifierTests {
    /// The distance in world pixels from `point` to the nearest segment of `line`.
    func offset(_ point: WorldPixel, from line: [WorldPixel]) -> Double {
        zip(line, line.dropFirst()).map { a, b in
            PathSimplifier.squaredOffset((point.x, point.y), (a.x, a.y), (b.x, b.y)).squareRoot()
        }.min() ?? .infinity
    }

    @Test(arguments: [
        (LonLat(lon: -0.45, lat: 51.47), LonLat(lon: 139.78, lat: 35.55)),  // London to Tokyo, over the Arctic
        (LonLat(lon: -60, lat: -30), LonLat(lon: 60, lat: 30)),  // bulging both ways of the equator
        (LonLat(lon: 170, lat: 60), LonLat(lon: -150, lat: 70)),  // across the antimeridian, far north
        (LonLat(lon: -74, lat: 40.7), LonLat(lon: -73.8, lat: 40.6)),  // a short step
    ], [2.0, 5.0, 9.0])
    func theDrawnLineStaysWithinToleranceOfTheGeodesic(step: (LonLat, LonLat), zoom: Double) {
        let (from, to) = step
        let densifier = GeodesicDensifier(zoom: zoom)
        let line = OverlayGeometry.vertices([from, to], geodesic: true, densifier: densifier).map(densifier.pixel)
        let exact = OverlayGeometry.unwrapped([from, to])
        let samples = Geodesic.points(from: exact[0], to: exact[1], count: 500).map(densifier.pixel)
        let worst = samples.map { offset($0, from: line) }.max() ?? 0
        #expect(worst <= GeodesicDensifier.pixelTolerance * 1.5,
                "\(from) to \(to) at zoom \(zoom): \(line.count) points, \(worst) px from the geodesic")
    }

    @Test func fewerPointsWhereTheMapShowsLess() {
        let london = LonLat(lon: -0.45, lat: 51.47), tokyo = LonLat(lon: 139.78, lat: 35.55)
        let counts = [2.0, 6.0, 10.0].map { zoom in
            OverlayGeometry.vertices([london, tokyo], geodesic: true, densifier: GeodesicDensifier(zoom: zoom)).count
        }
        #expect(counts[0] < counts[1] && counts[1] < counts[2], "\(counts)")
        #expect(counts[0] < 100, "a whole-world view needs few points: \(counts[0])")
    }

    @Test func stepsTooShortToBendGetNoPoints() {
        let track = (0..<10_000).map { LonLat(lon: 10 + Double($0) * 0.0003, lat: 60 + sin(Double($0) / 50) * 0.01) }
        let drawn = OverlayGeometry.vertices(track, geodesic: true, densifier: GeodesicDensifier(zoom: 16))
        #expect(drawn.count == track.count)
    }
}

@Suite struct GeodesicBudgetTests {
    /// A line of many long steps (London and Tokyo in turn) fills in a bounded number of points.
    @Test func manyLongStepsShareAPointBudget() {
        let london = LonLat(lon: -0.45, lat: 51.47), tokyo = LonLat(lon: 139.78, lat: 35.55)
        let line = (0..<2_000).map { $0 % 2 == 0 ? london : tokyo }
        let densifier = GeodesicDensifier(zoom: 18, pointBudget: 20_000)
        let drawn = OverlayGeometry.vertices(line, geodesic: true, densifier: densifier)
        #expect(drawn.count <= line.count + 20_000, "\(drawn.count) points")
        #expect(drawn.count > line.count + 5_000, "the budget is used: \(drawn.count) points")
    }
}
