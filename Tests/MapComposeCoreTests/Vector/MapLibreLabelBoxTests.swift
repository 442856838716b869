import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// The collision boxes of point labels are MapLibre's: `text-line-height` per line (not the
/// font's own height), padded by `text-padding` (not the halo), around text trimmed of the
/// white space around its lines; and a label is placed only whole on the map.
@Suite struct MapLibreLabelBoxTests {
    typealias T = MapLibreStyleTests

    /// Pixels per degree of latitude at mapcompose zoom 6 near the equator.
    static let pixelsPerDegree = 256 * 64 / 360.0

    /// Two labels, "HHHH" above "MMMM", `gap` pixels between their points, 20 px text.
    static func stacked(gap: Double, layout: String = "", paint: String = "") throws -> MapStyle {
        let lat = gap / pixelsPerDegree
        let features = [("HHHH", 0.0, 0), ("MMMM", -lat, 1)].map { name, lat, key in
            #"{"type": "Feature", "properties": {"name": "\#(name)", "key": \#(key)}, "geometry": {"type": "Point", "coordinates": [0, \#(lat)]}}"#
        }.joined(separator: ", ")
        return try T.style("""
            {"id": "labels", "type": "symbol", "source": "points",
             "layout": {"text-field": ["get", "name"], "text-size": 20, "symbol-sort-key": ["get", "key"],
                        "text-padding": 0\(layout)},
             "paint": {"text-color": "#ff0000"\(paint)}}
            """, extraSources: """
            , "points": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features)]}}
            """)
    }

    /// Red pixels below the upper label's point: the lower label, when it was placed.
    static func lowerLabelPixels(_ style: MapStyle) async throws -> Int {
        let (image, viewport) = try await T.render(style, lat: 0, lon: 0, zoom: 6)
        let top = Int(viewport.devicePoint(LonLat(lon: 0, lat: 0)).y) + 14
        return MapLibreSymbolTests.redPixels(image, columns: 0..<256, rows: top..<256)
    }

    @Test func eachLineOfTheBoxIsTextLineHeightHigh() async throws {
        // 26 px apart: 20 px text at 1.2 em (24 px) fits; the font's own height (Noto Sans,
        // about 27 px) and 1.5 em (30 px) do not.
        #expect(try await Self.lowerLabelPixels(try Self.stacked(gap: 26)) > 30)
        #expect(try await Self.lowerLabelPixels(try Self.stacked(gap: 26, layout: #", "text-line-height": 1.5"#)) == 0)
        #expect(try await Self.lowerLabelPixels(try Self.stacked(gap: 40, layout: #", "text-line-height": 1.5"#)) > 30)
    }

    @Test func theHaloIsNotInTheBox() async throws {
        let halo = ##", "text-halo-color": "#ffffff", "text-halo-width": 3"##
        #expect(try await Self.lowerLabelPixels(try Self.stacked(gap: 26, paint: halo)) > 30)
        #expect(try await Self.lowerLabelPixels(try Self.stacked(gap: 26, layout: #", "text-padding": 3"#, paint: halo)) == 0)
    }

    @Test func aLabelThatWouldRunPastTheMapsEdgeIsLeftOut() async throws {
        func redPixels(atLongitude lon: Double) async throws -> Int {
            let style = try T.style("""
                {"id": "labels", "type": "symbol", "source": "points",
                 "layout": {"text-field": "HHHHHH", "text-size": 20},
                 "paint": {"text-color": "#ff0000"}}
                """, extraSources: """
                , "points": {"type": "geojson", "data": {"type": "Feature", "properties": {},
                  "geometry": {"type": "Point", "coordinates": [\(lon), 0]}}}
                """)
            let image = try await T.render(style, lat: 0, lon: 0, zoom: 6).image
            return MapLibreSymbolTests.redPixels(image, columns: 0..<256, rows: 0..<256)
        }
        // The map's left edge is at 2.81° W; a centred label 10 px from it would be cut.
        #expect(try await redPixels(atLongitude: 0) > 50)
        #expect(try await redPixels(atLongitude: -2.6) == 0)
    }

    @Test func whiteSpaceAroundLinesIsTrimmed() async throws {
        func render(_ field: String) async throws -> RasterImage {
            let style = try T.style("""
                {"id": "labels", "type": "symbol", "source": "points",
                 "layout": {"text-field": \(field), "text-size": 20},
                 "paint": {"text-color": "#ff0000"}}
                """, extraSources: """
                , "points": {"type": "geojson", "data": {"type": "Feature", "properties": {"name": "Paris"},
                  "geometry": {"type": "Point", "coordinates": [0, 0]}}}
                """)
            return try await T.render(style, lat: 0, lon: 0, zoom: 6).image
        }
        let plain = try await render(#"["get", "name"]"#)
        // A name over an absent second name, as the OpenMapTiles styles write it.
        let trailing = try await render(#"["concat", ["get", "name"], "\n"]"#)
        let padded = try await render(#"["concat", "  ", ["get", "name"], " \n "]"#)
        #expect(MapLibreSymbolTests.redPixels(plain, columns: 0..<256, rows: 0..<256) > 50)
        func differing(_ a: RasterImage, _ b: RasterImage) -> Int {
            (0..<a.height).reduce(0) { sum, y in sum + (0..<a.width).count { a.rgba(x: $0, y: y) != b.rgba(x: $0, y: y) } }
        }
        #expect(differing(plain, trailing) == 0)
        #expect(differing(plain, padded) == 0)
        #expect(MapLibrePainter.trimmedLines(" A \n B\n") == "A\nB")
    }
}
