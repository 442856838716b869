import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

@Suite struct OverlayPainterTests {
    static let white = "layers:\n  - id: white\n    source: {type: solid, color: white}\n"
    static let blue = RGBA(r: 0, g: 0, b: 204)

    func render(_ overlays: [Overlay], center: LonLat, zoom: Double, width: Int = 200, height: Int = 100,
                scale: Double = 1) async throws -> (RasterImage, Viewport) {
        let folder = try TemporaryFolder()
        let style = try RenderHelpers.style(Self.white, in: folder)
        let viewport = try Viewport(center: center, zoom: zoom, width: width, height: height, scale: scale)
        let image = try await MapRenderer(style: style, options: RenderOptions(attribution: false), overlays: overlays)
            .render(viewport).image
        return (image, viewport)
    }

    /// Device pixels in column `x` that are mostly the path's colour.
    func thickness(_ image: RasterImage, column x: Int) -> Double {
        (0..<image.height).reduce(0.0) { $0 + PixelMeasure.blue(image.rgba(x: x, y: $1)) }
    }

    @Test(arguments: [1.0, 2.0, 3.0])
    func lineWidthsStayInCSSPixelsAtAnyScale(scale: Double) async throws {
        let path = Overlay.path(PathOverlay(points: [LonLat(lon: -10, lat: 0), LonLat(lon: 10, lat: 0)],
                                            stroke: StrokeStyle(color: Self.blue, width: 4)))
        let (image, _) = try await render([path], center: LonLat(lon: 0, lat: 0), zoom: 3, scale: scale)
        let measured = thickness(image, column: image.width / 2)
        #expect(abs(measured - 4 * scale) < 0.3, "a 4-px line is \(4 * scale) device pixels at scale \(scale), got \(measured)")
    }

    @Test(arguments: [1.0, 2.0])
    func textSizeStaysInCSSPixels(scale: Double) async throws {
        let text = Overlay.text(TextOverlay(position: LonLat(lon: 0, lat: 0), text: "HHHH", color: Self.blue, size: 20, halo: nil))
        let (image, _) = try await render([text], center: LonLat(lon: 0, lat: 0), zoom: 3, scale: scale)
        var rows = Set<Int>()
        for y in 0..<image.height { for x in 0..<image.width where PixelMeasure.blue(image.rgba(x: x, y: y)) > 0.5 { rows.insert(y) } }
        let capHeight = Double(rows.count) / scale
        #expect(capHeight > 12 && capHeight < 17, "the cap height of 20-px text is about 14.6 CSS px, got \(capHeight)")
    }

    @Test func pinTipSitsOnTheMarkerPoint() async throws {
        let point = LonLat(lon: 2.35, lat: 48.85)
        let marker = Overlay.marker(MarkerOverlay(position: point, color: RGBA(r: 220, g: 0, b: 0)))
        let (image, viewport) = try await render([marker], center: LonLat(lon: 2, lat: 48.5), zoom: 6)
        let p = viewport.devicePoint(point)
        // The lowest red row is the tip; the pin's head is above it, centred on the point's column.
        var lowest = -1
        for y in 0..<image.height where (0..<image.width).contains(where: { PixelMeasure.red(image.rgba(x: $0, y: y)) > 0.2 }) { lowest = y }
        #expect(abs(Double(lowest) + 0.5 - p.y) <= 1.5, "tip row \(lowest) vs point y \(p.y)")
        let head = try #require(PixelMeasure.centroid(in: image, near: (p.x, p.y - 21), radius: 11, weight: PixelMeasure.red))
        #expect(abs(head.x - p.x) <= 0.5, "the pin is centred on the point's column")
        #expect(head.y < p.y - 10, "the head is above the point")
    }

    @Test func pathsAcrossTheAntimeridianTakeTheShortWay() async throws {
        let path = Overlay.path(PathOverlay(points: [LonLat(lon: 170, lat: 0), LonLat(lon: -170, lat: 0)],
                                            stroke: StrokeStyle(color: Self.blue, width: 4)))
        let (image, viewport) = try await render([path], center: LonLat(lon: 180, lat: 0), zoom: 2, width: 400, height: 100)
        let y = Int(viewport.devicePoint(LonLat(lon: 180, lat: 0)).y)
        let at180 = Int(viewport.devicePoint(LonLat(lon: 180, lat: 0)).x)
        #expect(PixelMeasure.blue(image.rgba(x: at180, y: y)) > 0.8, "drawn across 180°")
        let at160 = Int(viewport.devicePoint(LonLat(lon: 160, lat: 0)).x)
        #expect(PixelMeasure.blue(image.rgba(x: at160, y: y)) == 0, "not drawn the long way round through 160°E")
    }

    @Test func shapesFarBeyondTheOutputDrawOnlyWhatShows() async throws {
        // At zoom 20 this path spans billions of pixels; clipped, it is a clean horizontal line.
        let path = Overlay.path(PathOverlay(points: [LonLat(lon: -179, lat: 10), LonLat(lon: 0, lat: 10), LonLat(lon: 179, lat: 10)],
                                            stroke: StrokeStyle(color: Self.blue, width: 2)))
        let polygon = Overlay.polygon(PolygonOverlay(rings: [[LonLat(lon: -100, lat: -60), LonLat(lon: 100, lat: -60),
                                                              LonLat(lon: 0, lat: 9.99995)]],
                                                     fill: RGBA(r: 0, g: 200, b: 0), stroke: nil))
        let (image, _) = try await render([polygon, path], center: LonLat(lon: 0, lat: 10), zoom: 20)
        for x in stride(from: 0, to: image.width, by: 20) {
            #expect(abs(thickness(image, column: x) - 2) < 0.3, "column \(x) shows the 2-px line only")
        }
        #expect(image.rgba(x: 100, y: 99) == RGBA(r: 0, g: 200, b: 0), "the polygon's tip fills the bottom")
    }

    @Test func circleRadiusIsMetresOnTheGround() async throws {
        // 100 km at the equator is 0.8983° of longitude.
        let circle = Overlay.circle(CircleOverlay(center: LonLat(lon: 0, lat: 0), radius: 100_000,
                                                  fill: RGBA(r: 0, g: 0, b: 204), stroke: nil))
        let (image, viewport) = try await render([circle], center: LonLat(lon: 0, lat: 0), zoom: 7, width: 200, height: 200)
        let y = Int(viewport.devicePoint(LonLat(lon: 0, lat: 0)).y)
        let columns = (0..<image.width).reduce(0.0) { $0 + PixelMeasure.blue(image.rgba(x: $1, y: y)) }
        let expected = viewport.devicePoint(LonLat(lon: 0.898315, lat: 0)).x - viewport.devicePoint(LonLat(lon: -0.898315, lat: 0)).x
        #expect(abs(columns - expected) < 1, "diameter \(columns) px vs \(expected) px")
    }
}

extension OverlayPainterTests {
    /// A circle round the north pole fills the cap above it, not a band across the map.
    @Test func circleAroundAPoleFillsItsCap() async throws {
        let circle = Overlay.circle(CircleOverlay(center: LonLat(lon: 0, lat: 89), radius: 2_000_000,
                                                  fill: RGBA(r: 0, g: 0, b: 204), stroke: nil))
        let (image, viewport) = try await render([circle], center: LonLat(lon: 0, lat: 60), zoom: 1, width: 512, height: 300)
        let top = viewport.devicePoint(LonLat(lon: 0, lat: 84)).y
        let outside = viewport.devicePoint(LonLat(lon: 0, lat: 60)).y
        for lon in stride(from: -170.0, through: 170, by: 20) {
            let x = Int(viewport.devicePoint(LonLat(lon: lon, lat: 0)).x)
            #expect(PixelMeasure.blue(image.rgba(x: x, y: Int(top))) > 0.8, "the cap covers 84°N at \(lon)°")
            #expect(PixelMeasure.blue(image.rgba(x: x, y: Int(outside))) == 0, "60°N is outside the circle at \(lon)°")
        }
    }
}
