import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// A layer with opacity whose tiles are all there is painted once, straight onto the map with
/// its opacity, instead of into a group painted with it; the pixels are what opacity means
/// (DESIGN §4): the layer's own pixels times the opacity over what lies below.
@Suite struct StraightOpacityPaintTests {
    static let below = RGBA(r: 40, g: 160, b: 90)
    static let opacity = 0.4

    /// Real map tiles (the MapServer reference set, levels 0–6) over a solid layer.
    private func styles(in folder: TemporaryFolder, missingTile: Bool = false) throws -> (both: MapStyle, alone: MapStyle) {
        let tiles = TestPaths.fixture("Reference/tiles").path
        var path = "\(tiles)/{z}/{x}/{y}.png"
        if missingTile {
            // A copy of level 6 around the view without one tile: fallback draws its parent there.
            for x in 28...36 {
                for y in 16...24 where !(x == 32 && y == 20) {
                    let source = URL(fileURLWithPath: "\(tiles)/6/\(x)/\(y).png")
                    guard let data = try? Data(contentsOf: source) else { continue }
                    try folder.write(data, to: "holed/6/\(x)/\(y).png")
                }
            }
            path = folder.url.appendingPathComponent("holed").path + "/{z}/{x}/{y}.png"
        }
        let both = try RenderHelpers.style("""
            layers:
              - {id: below, source: {type: solid, color: "#28a05a"}}
              - {id: tiles, opacity: \(Self.opacity), source: {type: xyz, path: "\(path)", maxzoom: 6}}
            """, in: folder)
        let alone = try RenderHelpers.style("""
            layers:
              - {id: tiles, source: {type: xyz, path: "\(path)", maxzoom: 6}}
            """, in: folder)
        return (both, alone)
    }

    /// The largest channel difference between `image` and the layer `alone` (premultiplied)
    /// composited by hand at `opacity` over `below`.
    private func largestDifference(_ image: RasterImage, alone: RasterImage) -> Int {
        var largest = 0
        for y in stride(from: 0, to: image.height, by: 3) {
            for x in stride(from: 0, to: image.width, by: 3) {
                let top = alone.rgba(x: x, y: y), got = image.rgba(x: x, y: y)
                let a = Double(top.a) / 255 * Self.opacity
                func channel(_ t: UInt8, _ b: UInt8) -> Int {
                    // `rgba` is straight colour: back to premultiplied for the blend.
                    Int((Double(t) * a + Double(b) * (1 - a)).rounded())
                }
                largest = max(largest, abs(channel(top.r, Self.below.r) - Int(got.r)),
                              abs(channel(top.g, Self.below.g) - Int(got.g)),
                              abs(channel(top.b, Self.below.b) - Int(got.b)))
            }
        }
        return largest
    }

    @Test("tiles with opacity over another layer are the hand-made composite",
          arguments: [(5.37, 1.0), (6.0, 1.0), (5.6, 2.0)])
    func opacityIsTheCompositeOfTheLayers(_ zoom: Double, _ scale: Double) async throws {
        let folder = try TemporaryFolder()
        let (both, alone) = try styles(in: folder)
        let composed = try await RenderHelpers.render(both, lat: 54.16, lon: -2.81, zoom: zoom, width: 400, height: 300,
                                                       scale: scale)
        let layer = try await RenderHelpers.render(alone, lat: 54.16, lon: -2.81, zoom: zoom, width: 400, height: 300,
                                                    scale: scale)
        #expect(composed.report.layers[1].tilesMissing == 0)
        #expect(largestDifference(composed.image, alone: layer.image) <= 2)
    }

    @Test func aLayerWithAMissingTileIsTheSameCompositeThroughItsGroup() async throws {
        let folder = try TemporaryFolder()
        let (both, alone) = try styles(in: folder, missingTile: true)
        let composed = try await RenderHelpers.render(both, lat: 54.16, lon: -2.81, zoom: 6, width: 512, height: 512)
        let layer = try await RenderHelpers.render(alone, lat: 54.16, lon: -2.81, zoom: 6, width: 512, height: 512)
        #expect(composed.report.layers[1].tilesMissing == 1)
        #expect(largestDifference(composed.image, alone: layer.image) <= 2)
    }

    @Test func onlyAWholeSingleSourceOverBlockCoveringTheOutputIsPaintedStraight() async throws {
        let folder = try TemporaryFolder()
        let viewport = try Viewport(center: LonLat(lon: -2.81, lat: 54.16), zoom: 5.37, width: 400, height: 300)
        let store = TileStore()
        func check(_ yaml: String, in viewport: Viewport = viewport) async throws -> Bool {
            let style = try RenderHelpers.style(yaml, in: folder)
            let plan = LayerPlan(layer: style.layers[0], viewport: viewport)
            let pass = plan.passes[0], block = pass.blocks[0]
            let resolved = await TileResolver(store: store).resolve(block, level: pass, of: plan)
            return LayerCompositor(viewport: viewport, plan: plan, firstBlock: (resolved, block)).paintsStraight
        }
        let tiles = TestPaths.fixture("Reference/tiles").path + "/{z}/{x}/{y}.png"
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("empty"), withIntermediateDirectories: true)
        #expect(try await check("layers:\n  - {id: t, opacity: 0.5, source: {type: xyz, path: \"\(tiles)\", maxzoom: 6}}\n"))
        #expect(try await !check("layers:\n  - {id: t, opacity: 0.5, blend: multiply, source: {type: xyz, path: \"\(tiles)\", maxzoom: 6}}\n"))
        #expect(try await !check("layers:\n  - {id: t, opacity: 0.5, source: {type: xyz, path: \"empty/{z}/{x}/{y}.png\"}}\n"))
        // The whole world at zoom 1 is smaller than the output: the layer's clip edges cross pixels.
        let world = try Viewport(center: LonLat(lon: 12.3, lat: 41.9), zoom: 1, width: 900, height: 700)
        #expect(try await !check("layers:\n  - {id: t, opacity: 0.5, source: {type: xyz, path: \"\(tiles)\", maxzoom: 6}}\n",
                                 in: world))
    }
}
