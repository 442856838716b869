import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Tiles of any size are drawn into their own cell; blocks of a large layer meet without seams.
@Suite struct TileMosaicTests {
    static let red = RGBA(r: 220, g: 0, b: 0)

    private func renderOneTile(_ data: Data) async throws -> RasterImage {
        let folder = try TemporaryFolder()
        try folder.write(data, to: "t/2/2/1.png")
        let style = try RenderHelpers.style("""
            background: "#ffffff"
            layers:
              - {id: t, source: {type: xyz, path: "t/{z}/{x}/{y}.png", minzoom: 2, maxzoom: 2}}
            """, in: folder)
        // Zoom 2, 1024×1024 shows the whole world: tile 2/2/1 is the square (512…768, 256…512).
        return try await RenderHelpers.render(style, lat: 0, lon: 0, zoom: 2, width: 1024, height: 1024).image
    }

    @Test func aOnePixelTileFillsItsCellAndDoesNotBleed() async throws {
        let image = try await renderOneTile(try TileFixtures.solidPNG(Self.red, size: 1))
        #expect(image.rgba(x: 513, y: 257) == Self.red)
        #expect(image.rgba(x: 766, y: 510) == Self.red)
        #expect(image.rgba(x: 640, y: 384) == Self.red)
        for (x, y) in [(510, 384), (770, 384), (640, 254), (640, 514), (400, 384), (900, 200)] {
            #expect(image.rgba(x: x, y: y) == .white, "no bleed at \(x),\(y)")
        }
    }

    @Test func aNonSquareTileIsStretchedToItsCellLeavingNoGap() async throws {
        let tile = try RasterImage(width: 300, height: 200, color: Self.red)
        let image = try await renderOneTile(try ImageEncoder.png(tile))
        #expect(image.rgba(x: 513, y: 510) == Self.red, "bottom-left corner of the cell")
        #expect(image.rgba(x: 766, y: 257) == Self.red, "top-right corner of the cell")
        #expect(image.rgba(x: 770, y: 300) == .white && image.rgba(x: 600, y: 514) == .white)
    }

    /// A layer cut into many small blocks must look like one drawn as a single mosaic. Pixman
    /// steps through a scaled image in 16.16 fixed point from the start of each painted span,
    /// so spans that start at a block edge round a bilinear weight differently now and then:
    /// up to 3 levels in a channel, far below a visible seam (a missing or doubled pixel row
    /// differs by tens of levels).
    @Test("blocks meet without seams", arguments: [1.0, 3.37, 5.5])
    func blocksMatchASingleMosaic(_ zoom: Double) async throws {
        let folder = try TemporaryFolder()
        let style = try RenderHelpers.style("""
            background: "#ffffff"
            layers:
              - {id: c, opacity: 0.8, source: {type: checkerboard, colors: ["#ffffff", "#204080"], size: 7}}
              - {id: d, source: {type: debug, color: "#b00020"}}
            """, in: folder)
        let viewport = try Viewport(center: LonLat(lon: 12.3, lat: 41.9), zoom: zoom, width: 900, height: 700)
        var single = MapRenderer(style: style, options: RenderOptions(attribution: false))
        single.mosaicSide = 1 << 20
        var blocked = MapRenderer(style: style, options: RenderOptions(attribution: false))
        blocked.mosaicSide = 256
        blocked.stripWidth = 256
        let a = try await single.render(viewport), b = try await blocked.render(viewport)
        // Equal to within three levels of rounding in any channel, everywhere.
        var differing = 0
        for y in 0..<a.image.height {
            for x in 0..<a.image.width where !RenderHelpers.close(a.image.rgba(x: x, y: y), b.image.rgba(x: x, y: y), within: 3) {
                differing += 1
            }
        }
        if differing > 0 {
            _ = try GoldenComparison(name: "mosaic-blocks-z\(zoom)", threshold: 0, maxDifferingFraction: 0)
                .compare(actual: b.image, expected: a.image)
        }
        #expect(differing == 0, "see Output/test-results/mosaic-blocks-z\(zoom)")
        #expect(b.report.layers[0].tilesDrawn == a.report.layers[0].tilesDrawn)
    }
}
