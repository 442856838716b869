import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// `text-rotate` and `symbol-z-order`: how a label is turned, and the order in which a layer's
/// symbols are placed and drawn.
@Suite struct MapLibreSymbolOrderTests {
    typealias T = MapLibreStyleTests

    static func isRed(_ p: RGBA) -> Bool { p.r > 150 && p.g < 110 && p.b < 110 && p.a > 100 }
    static func isBlue(_ p: RGBA) -> Bool { p.b > 150 && p.r < 110 && p.g < 110 && p.a > 100 }

    static func count(_ image: RasterImage, _ test: (RGBA) -> Bool) -> Int {
        (0..<image.height).reduce(0) { sum, y in sum + (0..<image.width).count { test(image.rgba(x: $0, y: y)) } }
    }

    /// The rows and columns holding red pixels.
    static func redExtent(_ image: RasterImage) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
        var x0 = Int.max, x1 = Int.min, y0 = Int.max, y1 = Int.min
        for y in 0..<image.height {
            for x in 0..<image.width where isRed(image.rgba(x: x, y: y)) {
                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
            }
        }
        return x0 <= x1 ? (x0...x1, y0...y1) : nil
    }

    /// Labels at `points` (longitude, latitude, text colour), in that order in the data, on a
    /// white 256² map at zoom 3 centred on 0, 0; `layout` is added to the layer's layout.
    static func labels(_ points: [(Double, Double, String)], text: String, size: Int, layout: String) async throws -> RasterImage {
        let features = points.map { lon, lat, color in
            #"{"type": "Feature", "properties": {"color": "\#(color)"}, "geometry": {"type": "Point", "coordinates": [\#(lon), \#(lat)]}}"#
        }.joined(separator: ", ")
        let style = try T.style("""
            {"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
            {"id": "labels", "type": "symbol", "source": "points",
             "layout": {"text-field": "\(text)", "text-size": \(size)\(layout)},
             "paint": {"text-color": ["get", "color"]}}
            """, extraSources: """
            , "points": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features)]}}
            """)
        #expect(style.notes.isEmpty, "\(style.notes)")
        return try await T.render(style, lat: 0, lon: 0, zoom: 3).image
    }

    /// `text-rotate` turns a point label about its anchor, clockwise: a wide label becomes a
    /// tall one, centred where it was.
    @Test func textRotateTurnsAPointLabel() async throws {
        let level = try #require(Self.redExtent(try await Self.labels([(0, 0, "#ff0000")], text: "WWWWWW", size: 24, layout: "")))
        let turned = try #require(Self.redExtent(try await Self.labels([(0, 0, "#ff0000")], text: "WWWWWW", size: 24,
                                                                          layout: #", "text-rotate": 90"#)))
        #expect(level.columns.count > 3 * level.rows.count, "level: \(level)")
        #expect(turned.rows.count > 3 * turned.columns.count, "turned: \(turned)")
        #expect(abs(turned.rows.count - level.columns.count) <= 3, "the same length: \(level) → \(turned)")
        #expect(abs((turned.rows.lowerBound + turned.rows.upperBound) / 2 - 128) <= 3
                    && abs((turned.columns.lowerBound + turned.columns.upperBound) / 2 - 128) <= 3, "about its anchor: \(turned)")
        // A quarter turn anticlockwise is the same label read the other way up: same box.
        let back = try #require(Self.redExtent(try await Self.labels([(0, 0, "#ff0000")], text: "WWWWWW", size: 24,
                                                                        layout: #", "text-rotate": -270"#)))
        #expect(back == turned)
    }

    /// The turned label's box is turned with it: two wide labels side by side collide when
    /// level and both fit when turned upright.
    @Test func aTurnedLabelCollidesWithItsTurnedBox() async throws {
        // 8.8° of longitude is 50 px at zoom 3: less than the label's width, more than its height.
        let points = [(-4.4, 0.0, "#ff0000"), (4.4, 0.0, "#ff0000")]
        let level = Self.count(try await Self.labels(points, text: "WWWW", size: 24, layout: ""), Self.isRed)
        let turned = Self.count(try await Self.labels(points, text: "WWWW", size: 24, layout: #", "text-rotate": 90"#), Self.isRed)
        let one = Self.count(try await Self.labels([points[0]], text: "WWWW", size: 24, layout: ""), Self.isRed)
        #expect(abs(level - one) <= one / 20, "level: one label kept (\(level) against \(one))")
        #expect(abs(turned - 2 * one) <= one / 10, "turned: both kept (\(turned) against 2 × \(one))")
    }

    /// Overlapping labels (`text-allow-overlap`) without a sort key are drawn from the top of the
    /// map down (`symbol-z-order` `auto` or `viewport-y`): the lower one covers the upper one,
    /// whatever the order of the data. With `source` they are drawn in the data's order.
    @Test func overlappingLabelsAreDrawnTopDownUnlessInSourceOrder() async throws {
        // The lower (blue) label first in the data, the upper (red) one 3.5° (20 px) above it.
        let points = [(0.0, 0.0, "#0000ff"), (0.0, 3.5, "#ff0000")]
        func colours(_ zOrder: String?) async throws -> (red: Int, blue: Int) {
            let layout = #", "text-allow-overlap": true"# + (zOrder.map { #", "symbol-z-order": "\#($0)""# } ?? "")
            let image = try await Self.labels(points, text: "MMM", size: 40, layout: layout)
            return (Self.count(image, Self.isRed), Self.count(image, Self.isBlue))
        }
        let auto = try await colours(nil), viewportY = try await colours("viewport-y"), source = try await colours("source")
        #expect(auto.blue > auto.red + 100, "auto: the lower label on top: \(auto)")
        #expect(viewportY == auto)
        #expect(source.red > source.blue + 100, "source: the later in the data on top: \(source)")
    }

    /// `symbol-z-order: viewport-y` also places symbols from the bottom of the map up: of two
    /// colliding labels the lower one is kept, where otherwise the first in the data is.
    @Test func viewportYPlacesTheLowerLabelFirst() async throws {
        let points = [(0.0, 3.5, "#ff0000"), (0.0, 0.0, "#0000ff")]
        let data = try await Self.labels(points, text: "MMM", size: 40, layout: "")
        let bottomFirst = try await Self.labels(points, text: "MMM", size: 40, layout: #", "symbol-z-order": "viewport-y""#)
        #expect(Self.count(data, Self.isRed) > 200 && Self.count(data, Self.isBlue) == 0, "the first in the data kept")
        #expect(Self.count(bottomFirst, Self.isBlue) > 200 && Self.count(bottomFirst, Self.isRed) == 0, "the lower kept")
        // A sort key decides unless the order is viewport-y.
        let keyed = ##", "symbol-sort-key": ["match", ["get", "color"], "#0000ff", 0, 1]"##
        let byKey = try await Self.labels(points, text: "MMM", size: 40, layout: keyed)
        #expect(Self.count(byKey, Self.isBlue) > 200 && Self.count(byKey, Self.isRed) == 0, "the lowest key kept")
        let keyIgnored = try await Self.labels(points, text: "MMM", size: 40,
                                               layout: keyed.replacingOccurrences(of: "0, 1]", with: "1, 0]")
                                                   + #", "symbol-z-order": "viewport-y""#)
        #expect(Self.count(keyIgnored, Self.isBlue) > 200 && Self.count(keyIgnored, Self.isRed) == 0)
    }
}
