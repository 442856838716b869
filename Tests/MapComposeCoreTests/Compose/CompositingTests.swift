import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

@Suite struct CompositingTests {
    static let tileColor = RGBA(r: 51, g: 102, b: 204)

    @Test("a uniform tile set at zoom 3.3 has no seams: every pixel is the tile colour",
          arguments: [(0.0, 0.0, 1.0), (12.34, -56.78, 1.0), (-33.3, 151.21, 1.0), (47.123, 8.765, 2.0), (-5.5, 100.1, 1.5)])
    func noSeamsAtFractionalZoom(_ lat: Double, _ lon: Double, _ scale: Double) async throws {
        let folder = try TemporaryFolder()
        try RenderHelpers.writeUniformLevel(3, color: Self.tileColor, in: folder)
        let style = try RenderHelpers.style("""
            background: "#ff0000"
            layers:
              - {id: uniform, source: {type: xyz, path: "tiles/{z}/{x}/{y}.png"}}
            """, in: folder)
        let result = try await RenderHelpers.render(style, lat: lat, lon: lon, zoom: 3.3, width: 640, height: 480, scale: scale)
        #expect(result.report.layers[0].level == 3)
        #expect(result.report.layers[0].tilesMissing == 0)
        #expect(RenderHelpers.pixelsDiffering(from: Self.tileColor, in: result.image) == 0)
    }

    @Test func layersStackInZOrderWithOpacity() async throws {
        let folder = try TemporaryFolder()
        let style = try RenderHelpers.style("""
            background: "#ffffff"
            layers:
              - {id: red, source: {type: solid, color: "#ff0000"}}
              - {id: blue, opacity: 0.5, source: {type: solid, color: "#0000ff"}}
            """, in: folder)
        let image = try await RenderHelpers.render(style, lat: 10, lon: 10, zoom: 2.5).image
        let p = image.rgba(x: 100, y: 100)
        #expect(RenderHelpers.close(p, RGBA(r: 128, g: 0, b: 127), within: 1), "\(p)")

        let reordered = try RenderHelpers.style("""
            layers:
              - {id: red, source: {type: solid, color: "#ff0000"}}
              - {id: blue, z: -1, source: {type: solid, color: "#0000ff"}}
            """, in: folder)
        let top = try await RenderHelpers.render(reordered, lat: 10, lon: 10, zoom: 2.5).image
        #expect(top.rgba(x: 5, y: 5) == RGBA(r: 255, g: 0, b: 0))
    }

    @Test func blendModeMultiply() async throws {
        let folder = try TemporaryFolder()
        let style = try RenderHelpers.style("""
            layers:
              - {id: base, source: {type: solid, color: "#ff8040"}}
              - {id: shade, blend: multiply, source: {type: solid, color: "#808080"}}
            """, in: folder)
        let p = try await RenderHelpers.render(style, lat: 0, lon: 0, zoom: 3).image.rgba(x: 50, y: 50)
        #expect(RenderHelpers.close(p, RGBA(r: 128, g: 64, b: 32), within: 1), "\(p)")
    }

    @Test func boundsLimitDrawingAndRequests() async throws {
        let folder = try TemporaryFolder()
        let style = try RenderHelpers.style("""
            background: "#ffffff"
            layers:
              - {id: box, bounds: [0, 0, 10, 10], source: {type: solid, color: "#00ff00"}}
            """, in: folder)
        let result = try await RenderHelpers.render(style, lat: 5, lon: 5, zoom: 4, width: 512, height: 512)
        let viewport = try Viewport(center: LonLat(lon: 5, lat: 5), zoom: 4, width: 512, height: 512)
        func pixel(_ lon: Double, _ lat: Double) -> RGBA {
            let d = viewport.devicePoint(LonLat(lon: lon, lat: lat))
            return result.image.rgba(x: Int(d.x), y: Int(d.y))
        }
        #expect(pixel(5, 5) == RGBA(r: 0, g: 255, b: 0))
        #expect(pixel(-3, 5) == RGBA.white)
        #expect(pixel(5, 13) == RGBA.white)
        #expect(pixel(12, -2) == RGBA.white)
        #expect(result.report.layers[0].tilesRequested == 1)
    }

    @Test func minzoomAndMaxzoomHideTheLayer() async throws {
        let folder = try TemporaryFolder()
        let style = try RenderHelpers.style("""
            background: "#ffffff"
            layers:
              - {id: mid, minzoom: 3, maxzoom: 5, source: {type: solid, color: "#000000"}}
            """, in: folder)
        for (zoom, visible) in [(2.9, false), (3.0, true), (4.99, true), (5.0, false)] {
            let result = try await RenderHelpers.render(style, lat: 0, lon: 0, zoom: zoom)
            #expect(result.report.layers[0].visible == visible, "zoom \(zoom)")
            #expect(result.image.rgba(x: 9, y: 9) == (visible ? RGBA.black : RGBA.white), "zoom \(zoom)")
        }
    }

    @Test func viewAcrossTheAntimeridianDrawsWrappedTiles() async throws {
        let folder = try TemporaryFolder()
        for x in 0..<4 {
            for y in 0..<4 {
                let color = x == 3 ? RGBA(r: 255, g: 0, b: 0) : x == 0 ? RGBA(r: 0, g: 0, b: 255) : RGBA.black
                try folder.write(try TileFixtures.solidPNG(color), to: "tiles/2/\(x)/\(y).png")
            }
        }
        let style = try RenderHelpers.style("""
            layers:
              - {id: t, source: {type: xyz, path: "tiles/{z}/{x}/{y}.png"}}
            """, in: folder)
        let result = try await RenderHelpers.render(style, lat: 0, lon: 180, zoom: 2, width: 400, height: 200)
        #expect(result.image.rgba(x: 10, y: 100) == RGBA(r: 255, g: 0, b: 0))
        #expect(result.image.rgba(x: 390, y: 100) == RGBA(r: 0, g: 0, b: 255))
        #expect(result.report.layers[0].tiles.map { "\($0.level)/\($0.column)/\($0.row)" }.sorted() == ["2/0/1", "2/0/2", "2/3/1", "2/3/2"])
    }

    @Test func eachTileIsDecodedOncePerRenderEvenWhenTheWorldRepeats() async throws {
        let folder = try TemporaryFolder()
        try folder.write(try TileFixtures.solidPNG(Self.tileColor), to: "tiles/0/0/0.png")
        let style = try RenderHelpers.style("""
            layers:
              - {id: t, source: {type: xyz, path: "tiles/{z}/{x}/{y}.png"}}
            """, in: folder)
        let result = try await RenderHelpers.render(style, lat: 0, lon: 0, zoom: 0, width: 1000, height: 256)
        #expect(result.report.tilesDecoded == 1)
        #expect(result.report.layers[0].tilesRequested == 1)
        #expect(RenderHelpers.pixelsDiffering(from: Self.tileColor, in: result.image) == 0)
    }

    @Test func missingAndCorruptTilesAreReportedNotFatal() async throws {
        let folder = try TemporaryFolder()
        try RenderHelpers.writeUniformLevel(1, color: Self.tileColor, in: folder)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("tiles/1/0/0.png"))
        try folder.write(try TileFixtures.truncatedPNG(), to: "tiles/1/1/1.png")
        let style = try RenderHelpers.style("""
            background: "#ffffff"
            layers:
              - {id: base, source: {type: xyz, path: "tiles/{z}/{x}/{y}.png"}}
            """, in: folder)
        let result = try await RenderHelpers.render(style, lat: 0, lon: 0, zoom: 1, width: 512, height: 512)
        let layer = result.report.layers[0]
        #expect(layer.tilesDrawn == 2 && layer.tilesMissing == 2)
        let corruptPath = folder.url.appendingPathComponent("tiles/1/1/1.png").path
        #expect(result.report.problems.map(\.description) == ["layer 'base': tile 1/1/1 (\(corruptPath)): corrupt PNG data: data ends early"])
        #expect(result.report.diagnostics.map(\.description).contains("layer 'base': 1 of 4 tiles of level 1 absent"))
        #expect(result.image.rgba(x: 100, y: 100) == RGBA.white)
        #expect(result.image.rgba(x: 400, y: 100) == Self.tileColor)
        #expect(result.image.rgba(x: 400, y: 400) == RGBA.white)
        let missing = layer.tiles.first { $0.level == 1 && $0.column == 0 && $0.row == 0 }
        #expect(missing?.status == .missing && missing?.reason == "not in source")
    }

    @Test func retinaScaleUsesTilesOneLevelDeeper() async throws {
        let folder = try TemporaryFolder()
        try RenderHelpers.writeUniformLevel(2, color: Self.tileColor, in: folder)
        try RenderHelpers.writeUniformLevel(3, color: Self.tileColor, in: folder)
        let style = try RenderHelpers.style("""
            layers:
              - {id: t, source: {type: xyz, path: "tiles/{z}/{x}/{y}.png"}}
              - {id: g, source: {type: debug}}
            """, in: folder)
        let result = try await RenderHelpers.render(style, lat: 0, lon: 0, zoom: 2, width: 300, height: 200, scale: 2)
        #expect(result.image.width == 600 && result.image.height == 400)
        #expect(result.report.layers[0].level == 3)
        #expect(result.report.layers[1].level == 2, "self-drawn sources draw @2x tiles at the CSS zoom")
    }
}

@Suite struct DeepOverzoomTests {
    /// Level-2 tiles, each split into a red left half and a blue right half.
    func splitTiles(in folder: TemporaryFolder) throws {
        let png = try ImageEncoder.png(try TileFixtures.halfSplit(left: RGBA(r: 255, g: 0, b: 0), right: RGBA(r: 0, g: 0, b: 255)))
        for x in 0..<4 { for y in 0..<4 { try folder.write(png, to: "t/2/\(x)/\(y).png") } }
    }

    @Test("tiles overzoomed far past their level keep their colour and position", arguments: [8.0, 14.0, 18.0, 22.0, 24.0])
    func deepOverzoom(_ zoom: Double) async throws {
        let folder = try TemporaryFolder()
        try splitTiles(in: folder)
        let style = try RenderHelpers.style("""
            background: "#00ff00"
            layers:
              - {id: t, source: {type: xyz, path: "t/{z}/{x}/{y}.png", maxzoom: 2}}
            """, in: folder)
        // Centre on tile 2/2/1 a quarter of a tile pixel left of its red/blue edge (longitude 45).
        let edge = WorldPixel(x: 2 * 256 + 128, y: 1 * 256 + 100)
        let center = WebMercator.lonLat(from: WorldPixel(x: edge.x - 0.25, y: edge.y), zoom: 2)
        let result = try await RenderHelpers.render(style, lat: center.lat, lon: center.lon, zoom: zoom, width: 400, height: 300)
        #expect(result.report.layers[0].level == 2)
        // Bilinear weight of blue at the output centre: source x 127.75 - 0.5 → 0.25 between pixels 127 and 128.
        let f = exp2(zoom - 2)
        for column in [0, 200, 399] {
            let u = 127.75 + (Double(column) + 0.5 - 200) / f - 0.5
            let blue = min(max(u - 127, 0), 1)
            let p = result.image.rgba(x: column, y: 150)
            #expect(p.g == 0, "background shows through at zoom \(zoom)")
            #expect(abs(Double(p.b) - 255 * blue) <= 3 && abs(Double(p.r) - 255 * (1 - blue)) <= 3,
                    "column \(column) at zoom \(zoom): \(p), expected blue weight \(blue)")
        }
    }
}

@Suite struct UnderzoomLimitTests {
    @Test func aLayerFarBelowItsSourceLevelsIsSkippedWithAWarning() async throws {
        let folder = try TemporaryFolder()
        try folder.write(try TileFixtures.solidPNG(.black), to: "t/14/0/0.png")
        let style = try RenderHelpers.style("""
            background: "#ffffff"
            layers:
              - {id: deep, source: {type: xyz, path: "t/{z}/{x}/{y}.png", minzoom: 14, maxzoom: 16}}
            """, in: folder)
        let result = try await RenderHelpers.render(style, lat: 0, lon: 0, zoom: 1, width: 512, height: 512)
        let layer = result.report.layers[0]
        #expect(layer.tilesRequested == 0 && !layer.visible)
        #expect(result.report.diagnostics.map(\.description) == ["layer 'deep': skipped: needs 268435456 tiles of level 14: the output is far coarser than the source's levels 14…16; the limit is 4096 for this output size"])
        #expect(result.report.problems.isEmpty, "a skipped layer is not a tile problem for --strict")
        #expect(result.image.rgba(x: 256, y: 256) == .white)
    }
}

@Suite struct LargeTileTests {
    @Test func fiveHundredTwelvePixelTilesKeepTheirDetail() async throws {
        let folder = try TemporaryFolder()
        // A 512-px tile of 1-px black and white columns: resampled through 256 px it would turn grey.
        let stripes = try RasterImage(width: 512, height: 512)
        stripes.withMutablePixels { words, perRow in
            for y in 0..<512 { for x in 0..<512 { words[y * perRow + x] = x % 2 == 0 ? 0xFF00_0000 : 0xFFFF_FFFF } }
        }
        try folder.write(try ImageEncoder.png(stripes), to: "t/0/0/0.png")
        let style = try RenderHelpers.style("layers:\n  - {id: t, source: {type: xyz, path: \"t/{z}/{x}/{y}.png\", tile-size: 512}}\n", in: folder)
        // Zoom 1 on a 512-px grid's level 0 tile: tile pixels map 1:1 onto output pixels.
        let viewport = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 1, width: 512, height: 512)
        let image = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport).image
        #expect(image.rgba(x: 100, y: 100) == RGBA.black)
        #expect(image.rgba(x: 101, y: 100) == RGBA.white)
    }
}
