import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// MapLibre styles drawn over the committed OpenMapTiles-schema fixture (Natural Earth, zoom 0–4).
@Suite struct MapLibreStyleTests {
    static let land = RGBA(r: 242, g: 239, b: 233)
    static let water = RGBA(r: 160, g: 200, b: 240)
    static let folder = TestPaths.fixture("MapLibre")

    /// A style over the fixture, read as if it were a file in the fixture folder (so relative
    /// paths resolve there).
    static func style(_ layers: String, url: String = "pmtiles://ne-omt.pmtiles", extraSources: String = "",
                      sprite: String? = nil) throws -> MapStyle {
        let text = """
        {"version": 8, "name": "test", \(sprite.map { "\"sprite\": \"\($0)\"," } ?? "")
         "sources": {"omt": {"type": "vector", "url": "\(url)"}\(extraSources)},
         "layers": [\(layers)]}
        """
        return try StyleLoader.load(text: text, origin: .file(folder.appendingPathComponent("test.json")))
    }

    static let landAndWater = """
        {"id": "land", "type": "background", "paint": {"background-color": "#f2efe9"}},
        {"id": "water", "type": "fill", "source": "omt", "source-layer": "water", "paint": {"fill-color": "#a0c8f0"}}
        """

    static func render(_ style: MapStyle, lat: Double, lon: Double, zoom: Double, width: Int = 256, height: Int = 256,
                       scale: Double = 1) async throws -> (image: RasterImage, viewport: Viewport) {
        let viewport = try Viewport(center: LonLat(lon: lon, lat: lat), zoom: zoom, width: width, height: height, scale: scale)
        let result = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport)
        return (result.image, viewport)
    }

    static func pixel(_ image: RasterImage, _ viewport: Viewport, lat: Double, lon: Double) -> RGBA {
        let p = viewport.devicePoint(LonLat(lon: lon, lat: lat))
        return image.rgba(x: Int(p.x), y: Int(p.y))
    }

    static func close(_ a: RGBA, _ b: RGBA, tolerance: Int = 3) -> Bool {
        abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance
            && abs(Int(a.b) - Int(b.b)) <= tolerance && abs(Int(a.a) - Int(b.a)) <= tolerance
    }

    /// Rows of `column` whose pixel is close to `color`.
    static func run(_ image: RasterImage, column: Int, of color: RGBA) -> Int {
        (0..<image.height).count { close(image.rgba(x: column, y: $0), color, tolerance: 40) }
    }

    @Test func landAndWaterWhereTheDataSays() async throws {
        let (image, viewport) = try await Self.render(try Self.style(Self.landAndWater), lat: 0, lon: 0, zoom: 1,
                                                      width: 512, height: 512)
        for (lat, lon) in [(0.0, -30.0), (-40.0, -120.0), (20.0, 160.0), (-30.0, 80.0)] {
            #expect(Self.close(Self.pixel(image, viewport, lat: lat, lon: lon), Self.water), "water at \(lat), \(lon)")
        }
        for (lat, lon) in [(0.0, 20.0), (23.0, 10.0), (45.0, 90.0), (-25.0, 135.0), (40.0, -100.0)] {
            #expect(Self.close(Self.pixel(image, viewport, lat: lat, lon: lon), Self.land), "land at \(lat), \(lon)")
        }
    }

    @Test func filtersLeaveFeaturesOut() async throws {
        let style = try Self.style(Self.landAndWater + """
            , {"id": "paris", "type": "circle", "source": "omt", "source-layer": "place",
               "filter": ["all", ["==", ["get", "class"], "city"], ["==", ["get", "name"], "Paris"]],
               "paint": {"circle-radius": 6, "circle-color": "#ff0000"}}
            """)
        let (image, viewport) = try await Self.render(style, lat: 50, lon: 8, zoom: 5, width: 512, height: 512)
        #expect(Self.close(Self.pixel(image, viewport, lat: 48.858092, lon: 2.352992), RGBA(r: 255, g: 0, b: 0)))
        #expect(Self.close(Self.pixel(image, viewport, lat: 52.523764, lon: 13.399603), Self.land))
    }

    /// A horizontal GeoJSON line whose width follows the zoom: at mapcompose zoom 4 (GL zoom 3)
    /// it is 2 + 3 × 2 = 8 pixels wide (10 if the zoom were not offset), twice that at scale 2.
    static func widthStyle() throws -> MapStyle {
        try style("""
            {"id": "line", "type": "line", "source": "line",
             "paint": {"line-color": "#0000ff", "line-width": ["interpolate", ["linear"], ["zoom"], 0, 2, 10, 22]}}
            """, extraSources: """
            , "line": {"type": "geojson", "data": {"type": "Feature", "properties": {},
                       "geometry": {"type": "LineString", "coordinates": [[-40, 0], [40, 0]]}}}
            """)
    }

    @Test func zoomFunctionsSeeGLZoom() async throws {
        let blue = RGBA(r: 0, g: 0, b: 255)
        let (image, _) = try await Self.render(try Self.widthStyle(), lat: 0, lon: 0, zoom: 4)
        #expect(Self.run(image, column: 128, of: blue) == 8)
        let (wider, _) = try await Self.render(try Self.widthStyle(), lat: 0, lon: 0, zoom: 6)
        #expect(Self.run(wider, column: 128, of: blue) == 12)
    }

    @Test func gapWidthAndOffsetSplitAndMoveTheLine() async throws {
        let blue = RGBA(r: 0, g: 0, b: 255)
        let style = try Self.style("""
            {"id": "line", "type": "line", "source": "line",
             "paint": {"line-color": "#0000ff", "line-width": 2, "line-gap-width": 6, "line-offset": 10}}
            """, extraSources: """
            , "line": {"type": "geojson", "data": {"type": "Feature", "properties": {},
                       "geometry": {"type": "LineString", "coordinates": [[-40, 0], [40, 0]]}}}
            """)
        let (image, _) = try await Self.render(style, lat: 0, lon: 0, zoom: 4)
        // Drawn west to east, a positive offset moves the line south (down): two 2-px lines
        // 6 px apart, centred 10 px below the equator (row 128).
        let rows = (0..<256).filter { Self.close(image.rgba(x: 128, y: $0), blue, tolerance: 40) }
        #expect(rows == [133, 134, 141, 142], "\(rows)")
    }

    @Test func scaleTwoDoublesWidths() async throws {
        let blue = RGBA(r: 0, g: 0, b: 255)
        let (image, _) = try await Self.render(try Self.widthStyle(), lat: 0, lon: 0, zoom: 4, scale: 2)
        #expect(image.width == 512)
        #expect(Self.run(image, column: 256, of: blue) == 16)
    }

    @Test func layerZoomRangeSeesGLZoom() async throws {
        let style = try Self.style("""
            {"id": "land", "type": "background", "minzoom": 3, "paint": {"background-color": "#00ff00"}}
            """)
        let (shown, _) = try await Self.render(style, lat: 0, lon: 0, zoom: 4)
        #expect(shown.rgba(x: 10, y: 10) == RGBA(r: 0, g: 255, b: 0))
        let (hidden, _) = try await Self.render(style, lat: 0, lon: 0, zoom: 3.5)
        #expect(hidden.rgba(x: 10, y: 10).a == 0)
    }

    @Test func belowGLZoomZeroLayersStillShow() async throws {
        // Mapcompose zoom 0 is GL zoom -1, below any MapLibre zoom: layers count it as GL zoom 0.
        let (image, viewport) = try await Self.render(try Self.style(Self.landAndWater), lat: 0, lon: 0, zoom: 0)
        #expect(Self.close(Self.pixel(image, viewport, lat: 0, lon: -30), Self.water))
        #expect(Self.close(Self.pixel(image, viewport, lat: 10, lon: 20), Self.land))
    }

    @Test func absurdSizesDoNotTrap() async throws {
        let style = try Self.style(Self.landAndWater + """
            , {"id": "wide", "type": "line", "source": "omt", "source-layer": "boundary",
               "paint": {"line-width": 1e300, "line-offset": -1e300, "line-dasharray": [1e-300, 1e-300], "line-translate": [1e300, 0]}},
              {"id": "dots", "type": "circle", "source": "omt", "source-layer": "place",
               "paint": {"circle-radius": ["/", 1, 0], "circle-stroke-width": 1e308}},
              {"id": "names", "type": "symbol", "source": "omt", "source-layer": "place",
               "layout": {"text-field": "{name}", "text-size": 1e308, "text-offset": [1e300, -1e300]}}
            """)
        _ = try await Self.render(style, lat: 48, lon: 10, zoom: 4, width: 64, height: 64)
    }

    @Test func tileLevels() {
        // floor(GL zoom) within the source's levels; deeper views are drawn from the deepest level.
        #expect(MapLibreGroup.level(glZoom: 3.7, native: 0...14, vector: true, tileSize: 512) == 3)
        #expect(MapLibreGroup.level(glZoom: 17, native: 0...14, vector: true, tileSize: 512) == 14)
        #expect(MapLibreGroup.level(glZoom: -1, native: 2...14, vector: true, tileSize: 512) == 2)
        #expect(MapLibreGroup.level(glZoom: 3.6, native: 0...14, vector: false, tileSize: 256) == 5)
    }

    @Test func overzoomedTilesStillDrawLandAndWater() async throws {
        let style = try Self.style(Self.landAndWater)
        // Mapcompose zoom 12 is GL zoom 11: the z4 tiles, overzoomed 128 times.
        let (inland, _) = try await Self.render(style, lat: 40.4, lon: -3.7, zoom: 12)
        #expect(Self.close(inland.rgba(x: 128, y: 128), Self.land))
        let (sea, _) = try await Self.render(style, lat: 38, lon: -20, zoom: 12)
        #expect(Self.close(sea.rgba(x: 128, y: 128), Self.water))
        let group = try #require(style.layers.first?.source as? MapLibreGroup)
        let scene = await group.prepare(try Viewport(center: LonLat(lon: -20, lat: 38), zoom: 12, width: 256, height: 256))
        #expect(scene.tiles["omt"]?.map(\.z) == [4])
    }

    @Test func translucentFillsHaveNoSeamsAtTileEdges() async throws {
        let style = try Self.style("""
            {"id": "land", "type": "background", "paint": {"background-color": "#ffffff"}},
            {"id": "water", "type": "fill", "source": "omt", "source-layer": "water",
             "paint": {"fill-color": "#000080", "fill-opacity": 0.5}}
            """)
        // The corner of four z2 tiles in the open Pacific (GL zoom 2.5).
        let (image, _) = try await Self.render(style, lat: 0, lon: -90, zoom: 3.5)
        let reference = image.rgba(x: 128, y: 128)
        #expect(reference.b > 150 && reference.r > 100)
        var differing = 0
        for y in 108..<148 { for x in 108..<148 where !Self.close(image.rgba(x: x, y: y), reference, tolerance: 1) { differing += 1 } }
        #expect(differing == 0)
    }

    @Test func pmtilesMBTilesAndPaths() async throws {
        let absolute = Self.folder.appendingPathComponent("ne-omt.mbtiles").path
        let urls = ["pmtiles://ne-omt.pmtiles", "mbtiles://ne-omt.mbtiles", "mbtiles://\(absolute)",
                    "pmtiles://../MapLibre/ne-omt.pmtiles"]
        var images: [RasterImage] = []
        for url in urls {
            let (image, viewport) = try await Self.render(try Self.style(Self.landAndWater, url: url), lat: 45, lon: 0, zoom: 4)
            #expect(Self.close(Self.pixel(image, viewport, lat: 45, lon: -8), Self.water), "\(url)")
            #expect(Self.close(Self.pixel(image, viewport, lat: 46, lon: 2), Self.land), "\(url)")
            images.append(image)
        }
        for image in images.dropFirst() {
            #expect(image.rgba(x: 60, y: 60) == images[0].rgba(x: 60, y: 60))
        }
    }

    @Test func layersNotDrawnAreNamedOnce() throws {
        let style = try Self.style(Self.landAndWater + """
            , {"id": "hills", "type": "hillshade", "source": "omt"},
              {"id": "buildings", "type": "fill-extrusion", "source": "omt", "source-layer": "water"},
              {"id": "icons", "type": "symbol", "source": "omt", "source-layer": "place", "layout": {"text-field": "{name}"}, "paint": {"heatmap-radius": 4}},
              {"id": "heat", "type": "heatmap", "source": "omt", "source-layer": "place"},
              {"id": "gradient", "type": "line", "source": "omt", "source-layer": "water", "paint": {"line-gradient": "#ff0000"}}
            """)
        let notes = style.notes.map(\.message)
        for id in ["hills", "buildings", "icons", "heat", "gradient"] {
            #expect(notes.count { $0.contains("layer '\(id)'") } == 1, "\(id): \(notes)")
        }
        #expect(notes.count == 5)
        #expect(notes.contains { $0.contains("line-gradient") })
    }

    /// A background whose pattern the style cannot draw (no sprite) is left out, with a note, not
    /// painted in its colour (black by default) over the map.
    @Test func patternLayersWithoutASpriteAreLeftOut() async throws {
        let style = try Self.style(Self.landAndWater + """
            , {"id": "waves", "type": "background", "paint": {"background-pattern": "wave"}}
            """)
        #expect(style.notes.map(\.message) == ["background patterns are not drawn: the style names no sprite"])
        let (image, viewport) = try await Self.render(style, lat: 43, lon: 5, zoom: 5)
        #expect(Self.pixel(image, viewport, lat: 41, lon: 5) == Self.water)
    }

    /// What real styles carry: a root `id` and `owner`, and labels' pitch and rotation
    /// alignment, read without a warning (`viewport` rotation alignment is drawn).
    @Test func publishedStyleKeysAreRead() throws {
        let text = """
        {"version": 8, "id": "positron", "owner": "someone", "name": "x", "sources": {"omt": {"type": "vector", "url": "pmtiles://ne-omt.pmtiles"}},
         "layers": [{"id": "names", "type": "symbol", "source": "omt", "source-layer": "place",
                     "layout": {"text-field": "{name}", "text-rotation-alignment": "map", "text-pitch-alignment": "viewport",
                                "icon-rotation-alignment": "auto"}},
                    {"id": "upright", "type": "symbol", "source": "omt", "source-layer": "place",
                     "layout": {"text-field": "{name}", "text-rotation-alignment": "viewport"}}]}
        """
        let style = try StyleLoader.load(text: text, origin: .file(Self.folder.appendingPathComponent("published.json")))
        #expect(style.notes.isEmpty, "\(style.notes)")
    }

    static func problems(_ text: String) -> [StyleProblem] {
        do {
            _ = try StyleLoader.load(text: text, origin: .file(folder.appendingPathComponent("bad.json")))
            return []
        } catch {
            return error.problems
        }
    }

    @Test func aMapLibreStyleThatIsNotValidJSONSaysSoAndWhere() {
        let broken = Self.problems("{\"version\": 8,\n \"sources\": {},\n \"layers\": [NaN]}")
        #expect(broken.count == 1)
        #expect(broken.first?.line == 3, "\(broken)")
        #expect(broken.first?.message.hasPrefix("not valid JSON") == true, "\(broken)")
        // A YAML style written as a flow mapping is still read as YAML.
        let yaml = Self.problems("{name: x, layers: [{id: a, source: {type: solid, color: nonsense}}]}")
        #expect(!yaml.isEmpty && !yaml.contains { $0.message.hasPrefix("not valid JSON") }, "\(yaml)")
    }

    @Test func malformedStylesNameTheKeyPath() {
        let source = #""omt": {"type": "vector", "url": "pmtiles://ne-omt.pmtiles"}"#
        let cases: [(String, String)] = [
            (#"{"version": 8, "sources": {\#(source)}, "layers": [{"id": "a", "type": "fill", "source": "omt", "source-layer": "water", "paint": {"fill-color": 5}}]}"#,
             "layers[0].paint.fill-color"),
            (#"{"version": 8, "sources": {\#(source)}, "layers": [{"id": "a", "type": "line", "source": "omt", "source-layer": "boundary", "paint": {"line-width": ["interpolate", ["linear"], ["zoom"], 0, "wide"]}}]}"#,
             "layers[0].paint.line-width[4]"),
            (#"{"version": 8, "sources": {\#(source)}, "layers": [{"id": "a", "type": "fill", "source": "omt", "source-layer": "water", "filter": ["==", ["get", "class"]]}]}"#,
             "layers[0].filter"),
            (#"{"version": 8, "sources": {"omt": {"type": "vectors", "url": "x"}}, "layers": []}"#, "sources.omt.type"),
            (#"{"version": 8, "sources": {"omt": {"type": "vector", "url": "mbtiles://missing.mbtiles"}}, "layers": [{"id": "a", "type": "fill", "source": "omt", "source-layer": "water"}]}"#,
             "sources.omt.url"),
            (#"{"version": 7, "sources": {}, "layers": []}"#, "version"),
            (#"{"version": 8, "sources": {}, "layers": {}}"#, "layers"),
            (#"{"version": 8, "sources": {}, "layers": [{"id": "a", "type": "polygon"}]}"#, "layers[0].type"),
            (#"{"version": 8, "sources": {}, "layers": [{"id": "a", "type": "background", "layout": {"visibility": "hidden"}}]}"#,
             "layers[0].layout.visibility"),
            // An enum's value outside its values.
            (#"{"version": 8, "sources": {\#(source)}, "layers": [{"id": "a", "type": "symbol", "source": "omt", "source-layer": "place", "layout": {"text-field": "x", "symbol-placement": "sometimes"}}]}"#,
             "layers[0].layout.symbol-placement"),
            (#"{"version": 8, "sources": {\#(source)}, "layers": [{"id": "a", "type": "line", "source": "omt", "source-layer": "boundary", "layout": {"line-cap": "pointy"}}]}"#,
             "layers[0].layout.line-cap"),
            // An array of enum values with one outside them.
            (#"{"version": 8, "sources": {\#(source)}, "layers": [{"id": "a", "type": "symbol", "source": "omt", "source-layer": "place", "layout": {"text-field": "x", "text-writing-mode": ["verticle"]}}]}"#,
             "layers[0].layout.text-writing-mode"),
            (#"{"version": 8, "sources": {\#(source)}, "layers": [{"id": "a", "type": "symbol", "source": "omt", "source-layer": "place", "layout": {"text-field": "x", "text-variable-anchor": ["top", "middle"]}}]}"#,
             "layers[0].layout.text-variable-anchor"),
        ]
        for (text, keyPath) in cases {
            let found = Self.problems(text)
            #expect(found.contains { $0.keyPath.hasPrefix(keyPath) }, "\(keyPath): \(found)")
        }
    }

    @Test func deeplyNestedExpressionIsAnErrorNotATrap() {
        let depth = 10_000
        let expression = String(repeating: #"["+", 1, "#, count: depth) + "1" + String(repeating: "]", count: depth)
        let text = #"{"version": 8, "sources": {}, "layers": [{"id": "a", "type": "background", "paint": {"background-opacity": "#
            + expression + "}}]}"
        let found = Self.problems(text)
        #expect(found.contains { $0.keyPath.hasPrefix("layers[0].paint.background-opacity") && $0.message.contains("nested") },
                "\(found.prefix(2))")
    }

    @Test func mapLibreStyleIsOneLayerOfAYAMLStyle() async throws {
        let folder = try TemporaryFolder()
        let json = """
            {"version": 8, "sources": {"omt": {"type": "vector", "url": "pmtiles://\(Self.folder.path)/ne-omt.pmtiles"}},
             "layers": [\(Self.landAndWater)]}
            """
        try json.write(to: folder.url.appendingPathComponent("vector.json"), atomically: true, encoding: .utf8)
        let yaml = """
            name: stacked
            layers:
              - id: base
                source: {type: solid, color: "#ff0000"}
              - id: vector
                source: {type: maplibre, style: vector.json}
                opacity: 0.5
                bounds: [-20, 30, 0, 60]
            """
        let url = folder.url.appendingPathComponent("style.yaml")
        try yaml.write(to: url, atomically: true, encoding: .utf8)
        let style = try StyleLoader.load(file: url)
        let (image, viewport) = try await Self.render(style, lat: 45, lon: 0, zoom: 4)
        // Water at half opacity over red, inside the bounds; red alone outside them.
        let inside = Self.pixel(image, viewport, lat: 45, lon: -8)
        #expect(Self.close(inside, RGBA(r: 208, g: 100, b: 120), tolerance: 3), "\(inside)")
        #expect(Self.close(Self.pixel(image, viewport, lat: 45, lon: 8), RGBA(r: 255, g: 0, b: 0)))
        #expect(style.document.layers.map(\.source.typeName) == ["solid", "maplibre"])
    }
}
