import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

@Suite struct TileSourceTests {
    static let red = RGBA(r: 255, g: 0, b: 0), blue = RGBA(r: 0, g: 0, b: 255)

    /// Red for the north-west tile of level 1, blue for the others: a row flip would show.
    static func northWestIsRed(_ coord: TileCoord) -> RGBA { coord.x == 0 && coord.y == 0 ? red : blue }

    static func level1() -> [TileCoord] {
        [TileCoord(z: 1, x: 0, y: 0), TileCoord(z: 1, x: 1, y: 0), TileCoord(z: 1, x: 0, y: 1), TileCoord(z: 1, x: 1, y: 1)]
    }

    func expectNorthWestRed(_ style: MapStyle) async throws {
        let image = try await RenderHelpers.render(style, lat: 0, lon: 0, zoom: 1, width: 512, height: 512).image
        #expect(image.rgba(x: 100, y: 100) == Self.red)
        #expect(image.rgba(x: 400, y: 100) == Self.blue)
        #expect(image.rgba(x: 100, y: 400) == Self.blue)
    }

    @Test func mbtilesRowsAreTMSAndMetadataGivesDefaults() async throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("world.mbtiles")
        let writer = try MBTilesWriter(file: file, metadata: [
            "name": "test", "format": "png", "minzoom": "1", "maxzoom": "1",
            "bounds": "-180,-85.0511,180,85.0511", "attribution": "Test Data",
        ])
        for coord in Self.level1() { try writer.put(coord, data: try TileFixtures.solidPNG(Self.northWestIsRed(coord))) }
        let style = try RenderHelpers.style("layers:\n  - {id: m, source: {type: mbtiles, path: world.mbtiles}}\n", in: folder)
        let source = try #require(style.layers[0].source as? MBTilesSource)
        #expect(source.info.nativeZoom == 1...1)
        #expect(source.info.attribution == "Test Data")
        #expect(source.format == "png")
        try await expectNorthWestRed(style)
        let deeper = try await RenderHelpers.render(style, lat: 0, lon: 0, zoom: 3.2)
        #expect(deeper.report.layers[0].level == 1, "level clamps to the metadata maxzoom")
    }

    @Test func mbtilesWithoutMetadataUsesTheLevelsItHas() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("bare.mbtiles")
        let writer = try MBTilesWriter(file: file, metadata: [:])
        try writer.put(TileCoord(z: 2, x: 1, y: 1), data: try TileFixtures.solidPNG(Self.red))
        try writer.put(TileCoord(z: 4, x: 1, y: 1), data: try TileFixtures.solidPNG(Self.red))
        let source = try MBTilesSource(spec: MBTilesSourceSpec(file: file, nativeZoom: nil))
        #expect(source.info.nativeZoom == 2...4)
    }

    @Test func tmsFolderSchemeFlipsRows() async throws {
        let folder = try TemporaryFolder()
        for coord in Self.level1() {
            try folder.write(try TileFixtures.solidPNG(Self.northWestIsRed(coord)), to: "tms/1/\(coord.x)/\(coord.tmsY).png")
        }
        try await expectNorthWestRed(try RenderHelpers.style(
            "layers:\n  - {id: t, source: {type: xyz, scheme: tms, path: \"tms/{z}/{x}/{y}.png\"}}\n", in: folder))
        try await expectNorthWestRed(try RenderHelpers.style(
            "layers:\n  - {id: t, source: {type: xyz, path: \"tms/{z}/{x}/{-y}.png\"}}\n", in: folder))
    }

    @Test func jpegTilesInAFolder() async throws {
        let folder = try TemporaryFolder()
        for coord in Self.level1() {
            try folder.write(try TileFixtures.solidJPEG(Self.northWestIsRed(coord)), to: "j/\(coord.z)/\(coord.x)/\(coord.y).jpg")
        }
        let style = try RenderHelpers.style("layers:\n  - {id: t, source: {type: xyz, path: \"j/{z}/{x}/{y}.jpg\"}}\n", in: folder)
        let image = try await RenderHelpers.render(style, lat: 0, lon: 0, zoom: 1, width: 512, height: 512).image
        #expect(RenderHelpers.close(image.rgba(x: 100, y: 100), Self.red, within: 4))
        #expect(RenderHelpers.close(image.rgba(x: 400, y: 400), Self.blue, within: 4))
    }

    @Test func templatesExpandEveryPlaceholder() throws {
        let coord = TileCoord(z: 3, x: 5, y: 2)
        #expect(try TilePathTemplate("{z}/{x}/{y}.png").expand(coord) == "3/5/2.png")
        #expect(try TilePathTemplate("{z}/{x}/{-y}.png").expand(coord) == "3/5/5.png")
        #expect(try TilePathTemplate("{z}/{x}/{y}.png").expand(coord, tms: true) == "3/5/5.png")
        #expect(try TilePathTemplate("q/{quadkey}.jpg").expand(coord) == "q/\(coord.quadkey).jpg")
        // An environment variable named like a placeholder, and an unclosed brace, stay as written.
        #expect(try TilePathTemplate("{z}/{x}/{y}.png?k=${x}&b={").expand(coord) == "3/5/2.png?k=${x}&b={")
        #expect(throws: TilePathTemplate.Problem.incomplete) { try TilePathTemplate("{z}/{x}.png") }
    }

    @Test func geojsonPolygonsReachingThePolesFillToTheWorldEdge() async throws {
        let style = try BuiltInStyleData.load("default")
        let result = try await RenderHelpers.render(style, lat: 0, lon: 0, zoom: 1, width: 512, height: 512)
        let land = RGBA(parsing: "#f2efe9")!
        #expect(result.image.rgba(x: 256, y: 510) == land, "Antarctica reaches the bottom edge")
        #expect(result.image.rgba(x: 60, y: 300) == RGBA(parsing: "#aad3df")!, "Pacific is ocean")
        #expect(result.report.layers[1].visible == false && result.report.layers[2].visible == false)
    }

    @Test func geojsonSourceDrawsPointsLinesAndLabelsAcrossTileEdges() async throws {
        let folder = try TemporaryFolder()
        try folder.write("""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"name": "Zero"}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[-40, 10], [40, 10]]}}
            ]}
            """, to: "f.geojson")
        let style = try RenderHelpers.style("""
            background: "#ffffff"
            layers:
              - id: f
                source: {type: geojson, path: f.geojson, fill: "#ff0000", stroke: "#000000", width: 4, radius: 6, label: name}
            """, in: folder)
        let result = try await RenderHelpers.render(style, lat: 0, lon: 0, zoom: 2, width: 256, height: 256)
        #expect(result.image.rgba(x: 128, y: 128) == RGBA(r: 255, g: 0, b: 0), "marker centred on a 4-tile corner")
        let lineY = Int(try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 2, width: 256, height: 256)
            .devicePoint(LonLat(lon: 0, lat: 10)).y)
        #expect(result.image.rgba(x: 60, y: lineY) == RGBA.black)
        #expect(result.image.rgba(x: 200, y: lineY) == RGBA.black)
        var labelInk = 0
        for x in 138..<200 { for y in 118..<134 where result.image.rgba(x: x, y: y).r < 100 { labelInk += 1 } }
        #expect(labelInk > 20, "label text is drawn to the right of the point")
    }
}

@Suite struct WorldEdgeOutlineTests {
    @Test func polygonsCutAtTheAntimeridianShowNoBorderThere() async throws {
        let style = try BuiltInStyleData.load("default")
        let image = try await RenderHelpers.render(style, lat: 65, lon: 180, zoom: 3, width: 600, height: 400).image
        let land = try #require(RGBA(parsing: "#f2efe9"))
        for y in 150..<170 {
            for x in 298..<302 {
                #expect(image.rgba(x: x, y: y) == land, "Chukotka is one shape across 180° at \(x),\(y)")
            }
        }
    }

    @Test func edgeSegmentsAreRecognised() {
        let p = { (x: Double, y: Double) in WorldPixel(x: x, y: y) }
        #expect(GeoJSONTileSource.alongWorldEdge(p(256, 10), p(256, 20)))
        #expect(GeoJSONTileSource.alongWorldEdge(p(3, 256), p(90, 256)))
        #expect(!GeoJSONTileSource.alongWorldEdge(p(256, 10), p(250, 20)))
        #expect(!GeoJSONTileSource.alongWorldEdge(p(0, 0), p(256, 256)))
    }
}
