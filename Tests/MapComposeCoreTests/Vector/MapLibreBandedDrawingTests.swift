import CCairo
import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// A MapLibre style drawn in bands of rows on all cores (MapLibrePainter+Bands.swift) is the
/// same map, to the pixel, as one drawn by one context; a `line-pattern`, whose image is sampled
/// at a slant, within a few levels.
@Suite struct MapLibreBandedDrawingTests {
    typealias T = MapLibreStyleTests

    /// Every kind of layer the painter draws, below and above a symbol layer: a background, a
    /// fill, a patterned fill, dashed round-capped borders, a blurred line, circles, labels with
    /// icons, and a fill over the labels.
    static let everyKind = """
        {"id": "paper", "type": "background", "paint": {"background-color": "#f2efe9"}},
        {"id": "water", "type": "fill", "source": "omt", "source-layer": "water", "paint": {"fill-color": "#a0c8f0"}},
        {"id": "ice", "type": "fill", "source": "omt", "source-layer": "landcover",
         "paint": {"fill-pattern": "halves", "fill-opacity": 0.6}},
        {"id": "borders", "type": "line", "source": "omt", "source-layer": "boundary",
         "layout": {"line-cap": "round", "line-join": "round"},
         "paint": {"line-color": "#9e9cab", "line-width": 2, "line-dasharray": [3, 2]}},
        {"id": "coast", "type": "line", "source": "omt", "source-layer": "water",
         "paint": {"line-color": "#3060a0", "line-width": 6, "line-blur": 3, "line-opacity": 0.5}},
        {"id": "towns", "type": "circle", "source": "omt", "source-layer": "place",
         "paint": {"circle-radius": 4, "circle-color": "#d04040", "circle-stroke-width": 1, "circle-stroke-color": "#ffffff"}},
        {"id": "names", "type": "symbol", "source": "omt", "source-layer": "place",
         "layout": {"text-field": ["get", "name"], "text-size": 13, "icon-image": "halves", "text-offset": [0, 1]},
         "paint": {"text-color": "#333333", "text-halo-color": "#ffffff", "text-halo-width": 1.5}},
        {"id": "veil", "type": "fill", "source": "omt", "source-layer": "water", "paint": {"fill-color": "#ffffff", "fill-opacity": 0.2}}
        """

    /// The scene of `layers` over Europe at `zoom`, drawn once by one context and once in bands
    /// (which must be taken), each on a new map of `width` × `height`.
    static func drawBothWays(_ layers: String, zoom: Double, width: Int, height: Int,
                             clip: (Double, Double, Double, Double)? = nil) async throws -> (one: RasterImage, banded: RasterImage) {
        let style = try T.style(layers, sprite: "line-patterns")
        let group = try #require(style.layers.first?.source as? MapLibreGroup)
        let viewport = try Viewport(center: LonLat(lon: 10, lat: 48), zoom: zoom, width: width, height: height)
        let scene = await group.prepare(viewport)
        let painter = MapLibrePainter(group: group, scene: scene, viewport: viewport)
        var images: [RasterImage] = []
        for concurrently in [false, true] {
            let image = try RasterImage(width: width, height: height)
            let context = try DrawingContext(image)
            context.drawsConcurrently = concurrently
            if let clip {
                context.rectangle(clip.0, clip.1, clip.2, clip.3)
                context.clip()
            }
            if concurrently {
                #expect(painter.drawInBands(on: context), "the bands are taken")
            } else {
                painter.draw(on: context)
            }
            try context.finish("draw the scene")
            images.append(image)
        }
        return (images[0], images[1])
    }

    @Test("bands draw the same map as one context", arguments: [(5.0, 700, 530), (6.5, 1024, 769)])
    func bandsDrawTheSameMap(_ view: (zoom: Double, width: Int, height: Int)) async throws {
        let (one, banded) = try await Self.drawBothWays(Self.everyKind, zoom: view.zoom, width: view.width, height: view.height)
        #expect(try ConcurrentDrawingTests.differing(one, banded, tolerance: 0, name: "maplibre-bands-z\(view.zoom)") == 0)
        // Not a blank map: land, water, borders and labels are there.
        let colours = Set((0..<one.height).flatMap { y in (0..<one.width).map { x in one.rgba(x: x, y: y) } })
        #expect(colours.count > 100)
    }

    /// A patterned line's image is sampled at a slant along each segment: the band's row offset,
    /// a whole number of pixels, can move a sample across one of pixman's 1/128-pixel steps of
    /// bilinear weights, which changes a channel by a level or two at each step.
    @Test func aPatternedLineIsDrawnInBandsWithinAFewLevels() async throws {
        let layers = """
            {"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
            {"id": "ribbon", "type": "line", "source": "omt", "source-layer": "boundary",
             "paint": {"line-pattern": "quarters", "line-width": 4}}
            """
        let (one, banded) = try await Self.drawBothWays(layers, zoom: 5, width: 700, height: 530)
        #expect(try ConcurrentDrawingTests.differing(one, banded, tolerance: 4, name: "maplibre-bands-line-pattern") == 0)
        let patterned = (0..<one.height).reduce(0) { sum, y in sum + (0..<one.width).count { one.rgba(x: $0, y: y) != .white } }
        #expect(patterned > 10_000, "the borders are drawn")
    }

    @Test func aClippedMapIsDrawnTheSameInBands() async throws {
        let (one, banded) = try await Self.drawBothWays(Self.everyKind, zoom: 5.5, width: 800, height: 640,
                                                        clip: (40, 30, 700, 560))
        #expect(try ConcurrentDrawingTests.differing(one, banded, tolerance: 0, name: "maplibre-bands-clipped") == 0)
        #expect(banded.rgba(x: 10, y: 10).a == 0, "nothing drawn outside the clip")
    }

    @Test func drawingThatIsNotTheSameInBandsIsLeftToOneContext() async throws {
        let style = try T.style(Self.everyKind, sprite: "line-patterns")
        let group = try #require(style.layers.first?.source as? MapLibreGroup)
        let viewport = try Viewport(center: LonLat(lon: 10, lat: 48), zoom: 5, width: 700, height: 530)
        let painter = MapLibrePainter(group: group, scene: await group.prepare(viewport), viewport: viewport)
        let image = try RasterImage(width: 700, height: 530)
        func bands(_ setUp: (DrawingContext) -> Void) throws -> Bool {
            let context = try DrawingContext(image)
            context.drawsConcurrently = true
            setUp(context)
            let banded = painter.drawInBands(on: context)
            try context.finish("draw the scene")
            return banded
        }
        #expect(try bands { _ in })
        #expect(try !bands { $0.drawsConcurrently = false }, "not asked for")
        #expect(try !bands { $0.beginGroup() }, "inside a group (layer opacity or blend)")
        #expect(try !bands { $0.rectangle(10.5, 20, 600, 400); $0.clip() }, "clip edges between pixels")
        #expect(try !bands { $0.scale(2) }, "transformed")
        #expect(try !bands { $0.rectangle(0, 0, 700, 200); $0.clip() }, "too few rows for two bands")
        let labelsOnly = try T.style(#"{"id": "names", "type": "symbol", "source": "omt", "source-layer": "place", "layout": {"text-field": ["get", "name"]}}"#)
        let labelGroup = try #require(labelsOnly.layers.first?.source as? MapLibreGroup)
        let labelPainter = MapLibrePainter(group: labelGroup, scene: await labelGroup.prepare(viewport), viewport: viewport)
        let context = try DrawingContext(image)
        #expect(!labelPainter.drawInBands(on: context), "nothing below the labels to share out")
    }
}
