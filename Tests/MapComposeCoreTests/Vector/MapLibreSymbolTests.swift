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

    @Test func linePlacementIsNamedNotDrawn() throws {
        let style = try T.style("""
            {"id": "roads", "type": "symbol", "source": "omt", "source-layer": "boundary",
             "layout": {"symbol-placement": "line", "text-field": "{name}"}}
            """)
        #expect(style.notes.map(\.message) == ["layer 'roads': symbol-placement 'line' is not drawn"])
    }
}
