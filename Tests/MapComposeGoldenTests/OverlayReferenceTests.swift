import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// Overlay geometry against MapServer: the same simplestyle GeoJSON drawn by MapServer
/// (scripts/reference/make-overlay-reference.sh) and by mapcompose for the same viewport.
/// Marker centroids and the rows/columns straight paths cross must agree within one pixel.
@Suite struct OverlayReferenceTests {
    /// manifest.json: the viewport (`center` as [lat, lon], `zoom`, `width`, `height`, `scale`)
    /// and the bbox MapServer was asked for.
    struct Manifest: Decodable {
        struct ViewportSpec: Decodable { let center: [Double], zoom: Double, width: Int, height: Int, scale: Double }
        let viewport: ViewportSpec
        let bbox3857: [Double]
    }

    let folder = TestPaths.fixture("OverlayReference")

    func render() async throws -> (ours: RasterImage, theirs: RasterImage, viewport: Viewport, overlays: [Overlay]) {
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: folder.appendingPathComponent("manifest.json")))
        let v = manifest.viewport
        let viewport = try Viewport(center: LonLat(lon: v.center[1], lat: v.center[0]), zoom: v.zoom,
                                    width: v.width, height: v.height, scale: v.scale)
        let extent = viewport.extent
        for (ours, theirs) in zip([extent.minX, extent.minY, extent.maxX, extent.maxY], manifest.bbox3857) {
            #expect(abs(ours - theirs) < 1e-3, "MapServer's bbox is the viewport's")
        }
        let overlays = try GeoJSONOverlay.overlays(from: Data(contentsOf: folder.appendingPathComponent("overlay.geojson")))
        let style = try StyleLoader.load(text: "layers:\n  - id: white\n    source: {type: solid, color: white}\n",
                                         origin: .file(folder.appendingPathComponent("inline.yaml")))
        let result = try await MapRenderer(style: style, options: RenderOptions(attribution: false), overlays: overlays)
            .render(viewport)
        let theirs = try GoldenComparison.load(folder.appendingPathComponent("mapserver.png"))
        if ProcessInfo.processInfo.environment["KEEP_TEST_IMAGES"] == "1" {
            try ImageEncoder.png(result.image).write(to: TestPaths.results("overlay-reference").appendingPathComponent("mapcompose.png"))
        }
        return (result.image, theirs, viewport, overlays)
    }

    @Test func markerCentroidsAgreeWithMapServerWithinOnePixel() async throws {
        let (ours, theirs, viewport, overlays) = try await render()
        var worst = 0.0, count = 0
        for case .marker(let marker) in overlays {
            let expected = viewport.devicePoint(marker.position)
            let a = try #require(PixelMeasure.centroid(in: ours, near: expected, radius: 14, weight: PixelMeasure.red))
            let b = try #require(PixelMeasure.centroid(in: theirs, near: expected, radius: 14, weight: PixelMeasure.red))
            let offset = max(abs(a.x - b.x), abs(a.y - b.y))
            worst = max(worst, offset)
            count += 1
            #expect(offset <= 1, "marker at \(marker.position): mapcompose \(a), MapServer \(b)")
            #expect(abs(a.x - expected.x) <= 1 && abs(a.y - expected.y) <= 1, "mapcompose's dot is centred on \(expected)")
        }
        #expect(count == 6)
        print("overlay reference: \(count) marker centroids, largest offset from MapServer \(String(format: "%.3f", worst)) px")
    }

    @Test func straightPathsCrossTheSameRowsAndColumnsAsMapServer() async throws {
        let (ours, theirs, viewport, _) = try await render()
        /// Where a path lies across one column (of a horizontal path) or one row (of a vertical one).
        func position(_ image: RasterImage, at index: Int, near expected: Double, horizontal: Bool) -> Double? {
            let window = Int(expected) - 8...Int(expected) + 8
            return horizontal ? PixelMeasure.row(in: image, column: index, rows: window, weight: PixelMeasure.blue)
                : PixelMeasure.column(in: image, row: index, columns: window, weight: PixelMeasure.blue)
        }
        // The path along 25°N in columns, and along 25°E in rows, away from crossings and ends.
        let y25 = viewport.devicePoint(LonLat(lon: 0, lat: 25)).y, x25 = viewport.devicePoint(LonLat(lon: 25, lat: 0)).x
        var samples: [(index: Int, expected: Double, horizontal: Bool)] = []
        for lons in [(-22.0)...(-12.0), 0.0...20.0, 30.0...42.0] {
            let from = Int(viewport.devicePoint(LonLat(lon: lons.lowerBound, lat: 25)).x)
            let to = Int(viewport.devicePoint(LonLat(lon: lons.upperBound, lat: 25)).x)
            samples += (from...to).map { ($0, y25, true) }
        }
        for lats in [3.0...20.0, 30.0...48.0] {
            let from = Int(viewport.devicePoint(LonLat(lon: 25, lat: lats.upperBound)).y)
            let to = min(Int(viewport.devicePoint(LonLat(lon: 25, lat: lats.lowerBound)).y), viewport.deviceHeight - 1)
            samples += (from...to).map { ($0, x25, false) }
        }
        var worst = 0.0
        for sample in samples {
            let what = sample.horizontal ? "25°N at column \(sample.index)" : "25°E at row \(sample.index)"
            let a = try #require(position(ours, at: sample.index, near: sample.expected, horizontal: sample.horizontal), "\(what)")
            let b = try #require(position(theirs, at: sample.index, near: sample.expected, horizontal: sample.horizontal), "\(what)")
            worst = max(worst, abs(a - b))
            #expect(abs(a - b) <= 1, "\(what): mapcompose \(a), MapServer \(b)")
            #expect(abs(a - sample.expected) <= 1, "\(what): the path lies at \(sample.expected)")
        }
        #expect(samples.count > 300)
        print("overlay reference: \(samples.count) path rows/columns, largest difference from MapServer \(String(format: "%.3f", worst)) px")
    }
}
