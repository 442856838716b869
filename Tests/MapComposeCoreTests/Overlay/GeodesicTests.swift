import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Geodesic paths against pyproj's Geod.npts (scripts/fixtures/make_geodesic_vectors.py).
@Suite struct GeodesicTests {
    struct Vectors: Decodable {
        struct Case: Decodable {
            let name: String
            let from: [Double]
            let to: [Double]
            let count: Int
            let points: [[Double]]
            let distance: Double
        }
        let cases: [Case]
    }

    static let vectors: Vectors = {
        let url = TestPaths.fixture("Geo/geodesic_vectors.json")
        return (try? JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))) ?? Vectors(cases: [])
    }()

    /// The view the CLI fits to the path at 800x600 (what a user renders), and zoom 8 for rigour.
    func zooms(for vector: Vectors.Case) throws -> [Double] {
        let path = Overlay.path(PathOverlay(points: [LonLat(lon: vector.from[1], lat: vector.from[0]),
                                                     LonLat(lon: vector.to[1], lat: vector.to[0])], geodesic: true))
        let fitted = try OverlayFit.viewport(for: [path], width: 800, height: 600, scale: 1, padding: 20, fractionalZoom: true)
        return [fitted.zoom, 8]
    }

    @Test func pointsMatchPyprojWithinHalfAPixelAtTheRenderZoom() throws {
        #expect(Self.vectors.cases.count == 2)
        for vector in Self.vectors.cases {
            let from = LonLat(lon: vector.from[1], lat: vector.from[0]), to = LonLat(lon: vector.to[1], lat: vector.to[0])
            let ours = Geodesic.points(from: from, to: to, count: vector.count)
            #expect(abs(Geodesic.inverse(from: from, to: to).distance - vector.distance) < 0.01, "\(vector.name) length")
            for zoom in try zooms(for: vector) {
                var worst = 0.0
                for (point, reference) in zip(ours, vector.points) {
                    let a = WebMercator.worldPixel(from: LonLat(lon: WebMercator.wrapLongitude(point.lon), lat: point.lat), zoom: zoom)
                    let b = WebMercator.worldPixel(from: LonLat(lon: reference[1], lat: reference[0]), zoom: zoom)
                    var dx = abs(a.x - b.x)
                    dx = min(dx, WebMercator.worldSize(atZoom: zoom) - dx)
                    worst = max(worst, max(dx, abs(a.y - b.y)))
                }
                #expect(worst <= 0.5, "\(vector.name) at zoom \(zoom): \(worst) px")
                print("geodesic \(vector.name) at zoom \(String(format: "%.2f", zoom)): largest deviation from pyproj \(String(format: "%.2e", worst)) px")
            }
        }
    }

    /// The drawn line passes through pyproj's points: each lies on path-coloured pixels.
    @Test func renderedPathPassesThroughPyprojPoints() async throws {
        let folder = try TemporaryFolder()
        let style = try RenderHelpers.style("layers:\n  - id: white\n    source: {type: solid, color: white}\n", in: folder)
        for vector in Self.vectors.cases {
            let from = LonLat(lon: vector.from[1], lat: vector.from[0]), to = LonLat(lon: vector.to[1], lat: vector.to[0])
            let path = Overlay.path(PathOverlay(points: [from, to], stroke: StrokeStyle(color: RGBA(r: 0, g: 0, b: 204), width: 3),
                                                geodesic: true))
            let viewport = try OverlayFit.viewport(for: [path], width: 800, height: 600, scale: 1, padding: 20, fractionalZoom: false)
            let image = try await MapRenderer(style: style, options: RenderOptions(attribution: false), overlays: [path]).render(viewport).image
            var checked = 0
            for reference in vector.points {
                let p = viewport.devicePoint(LonLat(lon: reference[1], lat: reference[0]))
                guard p.x >= 2, p.y >= 2, p.x < Double(image.width - 2), p.y < Double(image.height - 2) else { continue }
                let centre = try #require(PixelMeasure.centroid(in: image, near: p, radius: 3, weight: PixelMeasure.blue))
                #expect(abs(centre.x - p.x) <= 1.5 && abs(centre.y - p.y) <= 1.5, "\(vector.name): line near \(p) is at \(centre)")
                checked += 1
            }
            #expect(checked >= vector.count - 2, "\(vector.name): every point is in view")
        }
    }
}
