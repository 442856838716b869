import Foundation
import Testing
@testable import MapComposeCore

/// Lines simplified to the pixel grid draw the same pixels, with far fewer points.
@Suite struct PathSimplifierTests {
    /// A wandering line of `count` steps of about 30 m from Oslo, in longitude/latitude.
    static func track(_ count: Int) -> [LonLat] {
        var lon = 10.7, lat = 59.9, heading = 0.0, state: UInt64 = 7
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            heading += (Double(state >> 11) / Double(1 << 53) - 0.5) * 0.6
            lon += 0.0005 * cos(heading)
            lat += 0.00025 * sin(heading)
            return LonLat(lon: lon, lat: lat)
        }
    }

    func draw(_ overlays: [Overlay], _ viewport: Viewport, simplifies: Bool) throws -> RGBAImage {
        let image = try RasterImage(width: viewport.deviceWidth, height: viewport.deviceHeight)
        let context = try DrawingContext(image)
        context.clear(to: .white)
        var painter = OverlayPainter(viewport: viewport)
        painter.simplifies = simplifies
        painter.paint(overlays, onto: context)
        try context.finish("draw overlays")
        return RGBAImage(image)
    }

    @Test(arguments: [7.0, 10.0, 13.0])
    func simplifiedLinesDrawTheSamePixels(zoom: Double) throws {
        let track = Self.track(20_000)
        let path = Overlay.path(PathOverlay(points: track, stroke: StrokeStyle(color: RGBA(r: 200, g: 0, b: 0), width: 2),
                                            geodesic: true))
        let area = Overlay.polygon(PolygonOverlay(rings: [Array(track.prefix(5_000))]))
        let viewport = try Viewport(center: track[track.count / 2], zoom: zoom, width: 300, height: 200)
        let simplified = try draw([area, path], viewport, simplifies: true)
        let exact = try draw([area, path], viewport, simplifies: false)
        let result = try ImageDiff.compare(simplified, exact, threshold: 0.1)
        #expect(result.differingFraction < 0.002, "zoom \(zoom): \(result.summary)")
    }

    @Test func aMillionPointsShrinkToThePixelGrid() throws {
        let track = Self.track(1_000_000)
        let viewport = try Viewport(center: track[track.count / 2], zoom: 8, width: 400, height: 300)
        let points = track.map { viewport.devicePoint($0) }
        let simplified = PathSimplifier.simplified(points)
        let length = zip(points, points.dropFirst()).reduce(0.0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
        // Each point kept stands for a stretch of the line at least a few pixels long.
        #expect(Double(simplified.count) < length / 2, "\(simplified.count) of \(points.count) points kept, \(length) px long")
        #expect(simplified.count < points.count / 20, "\(simplified.count) of \(points.count) points kept")
        #expect(simplified.first! == points.first! && simplified.last! == points.last!)
    }

    @Test func theSimplifiedLineStraysLessThanTheTolerances() throws {
        let track = Self.track(3_000)
        let viewport = try Viewport(center: track[track.count / 2], zoom: 11, width: 400, height: 300)
        let points = track.map { viewport.devicePoint($0) }
        let simplified = PathSimplifier.simplified(points)
        #expect(simplified.count < points.count / 2)
        let worst = points.map { p in
            zip(simplified, simplified.dropFirst()).map { PathSimplifier.squaredOffset(p, $0, $1) }.min()!
        }.max()!.squareRoot()
        #expect(worst <= PathSimplifier.radialTolerance + PathSimplifier.tolerance, "\(worst) px from the line given")
    }
}
