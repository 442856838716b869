import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Text labels of MapLibre `symbol` layers: placed once for the whole map, never cut at tile edges.
@Suite struct MapLibreSymbolTests {
    typealias T = MapLibreStyleTests

    static func isRed(_ p: RGBA) -> Bool { p.r > 150 && p.g < 110 && p.b < 110 && p.a > 100 }

    static func redPixels(_ image: RasterImage, columns: Range<Int>, rows: Range<Int>) -> Int {
        rows.reduce(0) { sum, y in sum + columns.count { isRed(image.rgba(x: $0, y: y)) } }
    }

    @Test func aLabelAcrossATileEdgeIsWhole() async throws {
        // At mapcompose zoom 4 (GL zoom 3) the z3 tiles meet at longitude 0, through London's label.
        let style = try T.style("""
            {"id": "labels", "type": "symbol", "source": "omt", "source-layer": "place",
             "filter": ["==", ["get", "name"], "London"],
             "layout": {"text-field": "{name}", "text-font": ["Noto Sans Bold"], "text-size": 16},
             "paint": {"text-color": "#ff0000", "text-halo-color": "#ffffff", "text-halo-width": 1}}
            """)
        let (image, viewport) = try await T.render(style, lat: 51.5, lon: 0, zoom: 4)
        let edge = Int(viewport.devicePoint(LonLat(lon: 0, lat: 51.5)).x)
        let rows = 110..<146
        let left = Self.redPixels(image, columns: (edge - 40)..<edge, rows: rows)
        let right = Self.redPixels(image, columns: edge..<(edge + 40), rows: rows)
        #expect(left > 20 && right > 20, "left \(left), right \(right)")
    }

    static func overlapping(allowOverlap: Bool, names: [(String, Int)]) throws -> MapStyle {
        let features = names.map { name, key in
            #"{"type": "Feature", "properties": {"name": "\#(name)", "key": \#(key)}, "geometry": {"type": "Point", "coordinates": [0, 0]}}"#
        }.joined(separator: ", ")
        return try T.style("""
            {"id": "labels", "type": "symbol", "source": "points",
             "layout": {"text-field": ["get", "name"], "text-size": 20, "symbol-sort-key": ["get", "key"],
                        "text-allow-overlap": \(allowOverlap)},
             "paint": {"text-color": "#ff0000"}}
            """, extraSources: """
            , "points": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features)]}}
            """)
    }

    @Test func overlappingLabelsKeepTheOneWithTheLowestSortKey() async throws {
        let (collided, _) = try await T.render(try Self.overlapping(allowOverlap: false, names: [("AAAA", 1), ("WWWW", 0)]),
                                              lat: 0, lon: 0, zoom: 3)
        let (alone, _) = try await T.render(try Self.overlapping(allowOverlap: false, names: [("WWWW", 0)]),
                                           lat: 0, lon: 0, zoom: 3)
        let (both, _) = try await T.render(try Self.overlapping(allowOverlap: true, names: [("AAAA", 1), ("WWWW", 0)]),
                                          lat: 0, lon: 0, zoom: 3)
        let all = 0..<256
        #expect(Self.redPixels(collided, columns: all, rows: all) == Self.redPixels(alone, columns: all, rows: all))
        #expect(Self.redPixels(both, columns: all, rows: all) > Self.redPixels(alone, columns: all, rows: all))
    }

    @Test func fontStacksBecomeFamilies() {
        let font = MapLibrePainter.font(.array([.string("Open Sans Bold"), .string("Arial Unicode MS Regular")]), size: 12)
        #expect(font.family == "Open Sans,Arial Unicode MS,Noto Sans")
        #expect(font.bold)
    }

    /// The box of the red pixels: (width, height).
    static func redBox(_ image: RasterImage) -> (Int, Int) {
        var xs: [Int] = [], ys: [Int] = []
        for y in 0..<image.height { for x in 0..<image.width where isRed(image.rgba(x: x, y: y)) { xs.append(x); ys.append(y) } }
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return (0, 0) }
        return (x1 - x0 + 1, y1 - y0 + 1)
    }

    @Test func labelsAlongLinesTurnWithTheLine() async throws {
        func style(_ coordinates: String) throws -> MapStyle {
            try T.style("""
                {"id": "names", "type": "symbol", "source": "line",
                 "layout": {"symbol-placement": "line-center", "text-field": "MERIDIAN", "text-size": 14},
                 "paint": {"text-color": "#ff0000"}}
                """, extraSources: """
                , "line": {"type": "geojson", "data": {"type": "Feature", "properties": {},
                           "geometry": {"type": "LineString", "coordinates": \(coordinates)}}}
                """)
        }
        let (across, _) = try await T.render(try style("[[-20, 0], [20, 0]]"), lat: 0, lon: 0, zoom: 3)
        let (down, _) = try await T.render(try style("[[0, 20], [0, -20]]"), lat: 0, lon: 0, zoom: 3)
        let a = Self.redBox(across), d = Self.redBox(down)
        #expect(a.0 > 2 * a.1 && a.0 > 40, "\(a)")
        #expect(d.1 > 2 * d.0 && d.1 > 40, "\(d)")
    }

    @Test func anchorsAlongALine() {
        let line: [MapLibrePainter.Point] = [.init(0, 0), .init(1000, 0)]
        #expect(MapLibrePainter.anchors(along: line, spacing: 250).map(\.point.x) == [125, 375, 625, 875])
        #expect(MapLibrePainter.anchors(along: line, spacing: nil).map(\.point.x) == [500])
        // Kept upright: a line drawn right to left reads left to right.
        #expect(MapLibrePainter.anchors(along: line.reversed(), spacing: nil).first?.angle == 0)
    }

    static func iconStyle(_ layout: String, sprite: String? = "sprite") throws -> MapStyle {
        try T.style("""
            {"id": "icons", "type": "symbol", "source": "points", "layout": {\(layout)}}
            """, extraSources: """
            , "points": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
                {"type": "Feature", "properties": {"kind": "disc"}, "geometry": {"type": "Point", "coordinates": [-20, 0]}},
                {"type": "Feature", "properties": {"kind": "square"}, "geometry": {"type": "Point", "coordinates": [20, 0]}}]}}
            """, sprite: sprite)
    }

    @Test func iconsFromTheSprite() async throws {
        let style = try Self.iconStyle(#""icon-image": "{kind}", "icon-size": 2"#)
        #expect(style.notes.isEmpty, "\(style.notes)")
        let (image, viewport) = try await T.render(style, lat: 0, lon: 0, zoom: 3)
        let disc = viewport.devicePoint(LonLat(lon: -20, lat: 0)), square = viewport.devicePoint(LonLat(lon: 20, lat: 0))
        #expect(image.rgba(x: Int(disc.x), y: Int(disc.y)) == RGBA(r: 0, g: 0, b: 255))
        #expect(image.rgba(x: Int(square.x), y: Int(square.y)) == RGBA(r: 255, g: 0, b: 0))
        // 12 px at icon-size 2: 24 px, its outer 4 px white.
        #expect(image.rgba(x: Int(square.x) - 10, y: Int(square.y)) == RGBA(r: 255, g: 255, b: 255))
        #expect(image.rgba(x: Int(square.x) - 14, y: Int(square.y)).a == 0)
    }

    @Test func iconsWithoutASpriteAreANote() throws {
        let style = try Self.iconStyle(#""icon-image": "square""#, sprite: nil)
        #expect(style.notes.map(\.message) == ["icons are not drawn: the style names no sprite"])
        let missing = try Self.iconStyle(#""icon-image": "square""#, sprite: "nowhere")
        #expect(missing.notes.count == 1 && missing.notes[0].message.hasPrefix("icons are not drawn: cannot read 'nowhere.json'"),
                "\(missing.notes)")
    }
}
