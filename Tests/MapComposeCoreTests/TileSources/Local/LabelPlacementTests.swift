import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Labels are placed for the whole world and drawn whole by every tile they reach, across
/// tile edges and the antimeridian.
@Suite struct LabelPlacementTests {
    func render(_ features: [(String, Double, Double)], zoom: Double) async throws -> RasterImage {
        let folder = try TemporaryFolder()
        let items = features.map { name, lon, lat in
            #"{"type": "Feature", "properties": {"name": "\#(name)"}, "geometry": {"type": "Point", "coordinates": [\#(lon), \#(lat)]}}"#
        }
        try folder.write(#"{"type": "FeatureCollection", "features": [\#(items.joined(separator: ","))]}"#, to: "p.geojson")
        let style = try RenderHelpers.style("""
            background: "#ffffff"
            layers:
              - {id: p, source: {type: geojson, path: p.geojson, fill: none, stroke: none, label: name}}
            """, in: folder)
        return try await RenderHelpers.render(style, lat: 0, lon: 0, zoom: zoom, width: 300, height: 200).image
    }

    @Test func overlappingLabelsKeepTheFirstAndSeparateOnesBothShow() async throws {
        let first = try await render([("Alpha", 0, 0)], zoom: 4)
        let crowded = try await render([("Alpha", 0, 0), ("Bravo", 0.15, 0.05)], zoom: 4)
        #expect(try ImageDiff.compare(first, crowded).differingPixels == 0, "the overlapping second label is left out")
        let zoomedIn = try await render([("Alpha", 0, 0), ("Bravo", 0.15, 0.05)], zoom: 9)
        let zoomedInFirst = try await render([("Alpha", 0, 0)], zoom: 9)
        #expect(try ImageDiff.compare(zoomedInFirst, zoomedIn).differingPixels > 20, "apart at zoom 9, both show")
    }

    /// A style's labels are measured when a map first places them, not while the style is read:
    /// the text engine is still loading then, on another core.
    @Test func labelsAreMeasuredWhenFirstPlacedNotWhenLoaded() throws {
        let data = Data(#"{"type": "Feature", "properties": {"name": "Alpha"}, "geometry": {"type": "Point", "coordinates": [1, 2]}}"#.utf8)
        let source = try GeoJSONTileSource(spec: GeoJSONSourceSpec(data: data, path: "p.geojson",
                                                                   symbolizer: FeatureSymbolizer(labelProperty: "name")))
        #expect(!source.labels.hasMeasuredLabels)
        let placed = source.labels.placed(atScale: 4)
        #expect(source.labels.hasMeasuredLabels)
        #expect(placed.count == 1 && placed[0].extents.width > 10, "\(placed)")
    }

    private func render(label: String, lon: Double, lat: Double, center: LonLat, zoom: Double,
                        width: Int = 800, height: Int = 200) async throws -> (RasterImage, Viewport) {
        let folder = try TemporaryFolder()
        try folder.write("""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"name": "\(label)"}, "geometry": {"type": "Point", "coordinates": [\(lon), \(lat)]}}
            ]}
            """, to: "p.geojson")
        let style = try RenderHelpers.style("""
            background: "#ffffff"
            layers:
              - {id: p, source: {type: geojson, path: p.geojson, fill: "#000000", stroke: none, radius: 2, label: name, label-size: 14, label-halo: none}}
            """, in: folder)
        let viewport = try Viewport(center: center, zoom: zoom, width: width, height: height)
        let image = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport).image
        return (image, viewport)
    }

    /// Dark pixels in the columns `x0..<x1` around row `y`.
    private func ink(_ image: RasterImage, x0: Int, x1: Int, y: Int) -> Int {
        var count = 0
        for x in max(0, x0)..<min(image.width, x1) {
            for row in max(0, y - 12)..<min(image.height, y + 8) where image.rgba(x: x, y: row).r < 128 { count += 1 }
        }
        return count
    }

    @Test func aLabelNearTheAntimeridianContinuesIntoTheNextWorld() async throws {
        let (image, viewport) = try await render(label: "Funafuti Atoll", lon: 179.2, lat: -8.5,
                                                 center: LonLat(lon: 180, lat: -8.5), zoom: 6)
        let anchor = viewport.devicePoint(LonLat(lon: 179.2, lat: -8.5))
        let edge = viewport.devicePoint(LonLat(lon: 180, lat: -8.5))
        #expect(edge.x > anchor.x + 20, "the label reaches past 180°")
        #expect(ink(image, x0: Int(edge.x) + 1, x1: Int(anchor.x) + 200, y: Int(anchor.y)) > 40,
                "text drawn east of the antimeridian")
    }

    @Test func aLongLabelIsDrawnWholeFarBeyondItsAnchorTile() async throws {
        let text = "A very long place name that runs across several tiles to the east"
        let (image, viewport) = try await render(label: text, lon: 10, lat: 0, center: LonLat(lon: 10.6, lat: 0), zoom: 9,
                                                 width: 1000)
        let anchor = viewport.devicePoint(LonLat(lon: 10, lat: 0))
        // The text is some 500 px long; its last 150 px lie more than one 256-px tile from the anchor.
        #expect(ink(image, x0: Int(anchor.x) + 300, x1: Int(anchor.x) + 600, y: Int(anchor.y)) > 80)
    }

    /// A label that would reach past the map's edge is left out, never cut ("K…" at the
    /// right edge); the same label well inside is drawn whole.
    @Test func aLabelThatDoesNotFitInTheMapIsLeftOutNotCut() async throws {
        let center = LonLat(lon: 0, lat: 0)
        let probe = try Viewport(center: center, zoom: 6, width: 400, height: 200)
        // The anchor 40 px from the right edge: "Kingston upon Hull" runs some 120 px past it.
        func lon(atDeviceX x: Double) -> Double {
            WebMercator.lonLat(fromMetersX: probe.extent.minX + x * probe.resolution, y: 0).lon
        }
        let edgeLon = lon(atDeviceX: 360)
        let (cut, viewport) = try await render(label: "Kingston upon Hull", lon: edgeLon, lat: 0, center: center, zoom: 6,
                                               width: 400, height: 200)
        let anchor = viewport.devicePoint(LonLat(lon: edgeLon, lat: 0))
        #expect(ink(cut, x0: Int(anchor.x) + 4, x1: 400, y: Int(anchor.y)) == 0, "no part of the label is drawn")
        let (inside, _) = try await render(label: "Kingston upon Hull", lon: lon(atDeviceX: 100), lat: 0,
                                           center: center, zoom: 6, width: 400, height: 200)
        #expect(ink(inside, x0: 104, x1: 400, y: Int(anchor.y)) > 80, "inside, the label is drawn")
        // Over a view wide enough for it, the same place shows its label.
        let (wide, wideViewport) = try await render(label: "Kingston upon Hull", lon: edgeLon, lat: 0, center: center,
                                                    zoom: 6, width: 800, height: 200)
        let wideAnchor = wideViewport.devicePoint(LonLat(lon: edgeLon, lat: 0))
        #expect(ink(wide, x0: Int(wideAnchor.x) + 4, x1: 800, y: Int(wideAnchor.y)) > 80)
    }

    /// The placements a source caches must not point back at their owner: a GeoJSON source's
    /// label placement is freed with it (the fuzzer's leak check found such a cycle).
    @Test func aLabelledSourcesPlacementIsFreedAfterDrawing() async throws {
        weak var released: LabelPlacement?
        do {
            let text = #"{"type": "Feature", "properties": {"name": "Alpha"}, "geometry": {"type": "Point", "coordinates": [1, 1]}}"#
            var symbolizer = FeatureSymbolizer()
            symbolizer.labelProperty = "name"
            let source = try GeoJSONTileSource(spec: GeoJSONSourceSpec(data: Data(text.utf8), path: "p", symbolizer: symbolizer))
            let tile = await source.fetch(TileCoord(z: 2, x: 2, y: 1), pixelRatio: 1)
            guard case .found = tile.outcome else {
                Issue.record("the tile is drawn")
                return
            }
            #expect(!source.labels.placed(atScale: 4).isEmpty)
            released = source.labels
        }
        #expect(released == nil)
    }
}
