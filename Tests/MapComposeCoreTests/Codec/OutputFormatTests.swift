import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// WebP, PDF, SVG, PNG text chunks and world files. Rasterising PDF and SVG needs poppler and
/// librsvg: scripts/reference/check-outputs.sh does that and commits its figures.
@Suite struct OutputFormatTests {
    static func map() async throws -> (RasterImage, Viewport, MapRenderer) {
        let style = try StyleLoader.load(builtIn: BuiltInStyle.named("default")!)
        let overlays: [Overlay] = [
            .path(PathOverlay(points: [LonLat(lon: -0.45, lat: 51.47), LonLat(lon: 139.78, lat: 35.55)], geodesic: true)),
            .marker(MarkerOverlay(position: LonLat(lon: -0.12, lat: 51.5), label: "A")),
        ]
        let viewport = try Viewport(center: LonLat(lon: 60, lat: 50), zoom: 2, width: 400, height: 300)
        let renderer = MapRenderer(style: style, overlays: overlays)
        return (try await renderer.render(viewport).image, viewport, renderer)
    }

    @Test func webpLossyLooksLikeThePNGAndLosslessIsExact() async throws {
        let (image, _, _) = try await Self.map()
        let lossy = try TileDecoder.decode(try ImageEncoder.encode(image, as: .webp, quality: 90))
        let outcome = try GoldenComparison(name: "webp-lossy", threshold: 0.1, maxDifferingFraction: 0.01)
            .compare(actual: lossy, expected: image)
        #expect(outcome.passed, "\(outcome.summary)")
        let lossless = try TileDecoder.decode(try ImageEncoder.encode(image, as: .webp, lossless: true))
        #expect(RenderHelpers.pixelsDiffering(from: .white, in: image) > 0)
        let exact = try ImageDiff.compare(lossless, image, threshold: 0)
        #expect(exact.differingPixels == 0)
    }

    @Test func webpKeepsTransparency() throws {
        let image = try TileFixtures.solidImage(RGBA(r: 255, g: 0, b: 0, a: 128), size: 16)
        let back = try TileDecoder.decode(try ImageEncoder.encode(image, as: .webp, lossless: true))
        #expect(RenderHelpers.close(back.rgba(x: 8, y: 8), RGBA(r: 255, g: 0, b: 0, a: 128), within: 2))
    }

    @Test func pdfPageHasTheCSSSizeAndVectorOverlays() async throws {
        let (base, viewport, renderer) = try await Self.map()
        _ = base
        let layers = try await renderer.render(viewport, decorated: false).image
        let pdf = try VectorEncoder.encode(layers, as: .pdf, scale: 1) { renderer.decorate($0, viewport) }
        let text = String(decoding: pdf, as: UTF8.self)
        #expect(text.hasPrefix("%PDF-"))
        #expect(text.contains("/MediaBox [ 0 0 400 300 ]"), "one page of 400x300 points")
        #expect(text.contains("/Subtype /Image"), "the layers are one image")
        #expect(text.contains("/Font") || text.contains("/FontFile"), "attribution and labels are text, not pixels")
    }

    @Test func svgHasTheCSSSizeAnImageAndVectorPaths() async throws {
        let (_, viewport, renderer) = try await Self.map()
        let retina = try Viewport(center: viewport.center, zoom: viewport.zoom, width: 400, height: 300, scale: 2)
        let layers = try await renderer.render(retina, decorated: false).image
        #expect(layers.width == 800)
        let svg = String(decoding: try VectorEncoder.encode(layers, as: .svg, scale: 2) { renderer.decorate($0, retina) }, as: UTF8.self)
        #expect(svg.contains("width=\"400px\"") && svg.contains("height=\"300px\""), "the page keeps the CSS size at scale 2")
        #expect(svg.contains("<image") && svg.contains("<path"))
        #expect(svg.contains("width=\"800\""), "the embedded image has every device pixel")
    }

    @Test func pngTextChunksCarryTheBBoxAndValidCRCs() throws {
        // The CRC of the IEND chunk type alone is the well-known AE 42 60 82.
        #expect(PNGTextChunk.crc32(Data("IEND".utf8)) == 0xAE42_6082)
        let image = try TileFixtures.solidImage(.white, size: 4)
        let png = try ImageEncoder.png(image)
        let tagged = try ImageEncoder.png(image, text: [("bbox3857", "1,2,3,4")])
        let chunk = 12 + "bbox3857".count + 1 + 7
        #expect(tagged.count == png.count + chunk)
        // Signature and IHDR (33 bytes), then the chunk: length 16, tEXt, keyword, NUL, text, CRC.
        #expect(Array(tagged.prefix(33)) == Array(png.prefix(33)), "the header is the untagged file's")
        #expect(Array(tagged[33..<(33 + 8)]) == [0, 0, 0, 16] + Array("tEXt".utf8))
        #expect(String(decoding: tagged[(33 + 8)..<(33 + chunk - 4)], as: UTF8.self) == "bbox3857\u{0}1,2,3,4")
        let crc = tagged[(33 + chunk - 4)..<(33 + chunk)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        #expect(crc == PNGTextChunk.crc32(tagged[(33 + 4)..<(33 + chunk - 4)]))
        #expect(Array(tagged.dropFirst(33 + chunk)) == Array(png.dropFirst(33)), "the rest is the untagged file's")
        let decoded = try TileDecoder.decode(tagged)
        #expect(decoded.width == 4, "libpng reads the tagged file (it checks chunk CRCs)")
    }

    @Test func worldFilePlacesPixelCentres() throws {
        let viewport = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 1, width: 512, height: 512)
        let lines = WorldFile.text(for: viewport).split(separator: "\n").compactMap { Double($0) }
        let r = 2 * WebMercator.originShift / 512
        #expect(lines.count == 6)
        #expect(abs(lines[0] - r) < 1e-6 && lines[1] == 0 && lines[2] == 0 && abs(lines[3] + r) < 1e-6)
        #expect(abs(lines[4] - (-WebMercator.originShift + r / 2)) < 1e-6 && abs(lines[5] - (WebMercator.originShift - r / 2)) < 1e-6)
        #expect(WorldFile.path(besideImage: "out/map.png", format: .png) == "out/map.pgw")
        #expect(WorldFile.path(besideImage: "map.JPG", format: .jpeg) == "map.jgw")
        #expect(WorldFile.path(besideImage: "map", format: .webp) == "map.wld")
    }
}
