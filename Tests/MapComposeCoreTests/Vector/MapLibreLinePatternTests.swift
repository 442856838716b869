import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// `line-pattern`: the sprite image repeated along the line from its start, as MapLibre lays it.
/// The sprite is Tests/Fixtures/MapLibre/line-patterns (scripts/fixtures/make_line_pattern_sprite.py):
/// `halves`, 8 × 4, left red and right blue (green and yellow in the @2x sheet), and `quarters`,
/// red and blue over green and yellow.
@Suite struct MapLibreLinePatternTests {
    typealias T = MapLibreStyleTests
    typealias P = MapLibrePatternTests

    static let green = RGBA(r: 0, g: 255, b: 0), yellow = RGBA(r: 255, g: 255, b: 0)

    /// At zoom 4 (GL zoom 3, a 4096-pixel world) 45° of longitude is 512 pixels, 5.625° is 64: in
    /// the 256-pixel view centred on 0, 0 the line along the equator from -45° starts 384 pixels
    /// left of the view (a whole number of 8-pixel periods) and the meridian 5.625° is column 192.
    static let horizontal = [[-45.0, 0], [45, 0]]

    /// A white map with the lines `lines` (each a list of [lon, lat]) drawn with `paint`; each
    /// feature's `kind` property is its index's entry in `kinds`.
    static func style(_ paint: String, lines: [[[Double]]], kinds: [String] = [], layout: String = "{}") throws -> MapStyle {
        let features = lines.enumerated().map { index, line in
            let kind = index < kinds.count ? kinds[index] : ""
            return #"{"type": "Feature", "properties": {"kind": "\#(kind)"}, "geometry": {"type": "LineString", "coordinates": \#(line)}}"#
        }
        return try T.style("""
            {"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
            {"id": "lines", "type": "line", "source": "lines", "layout": \(layout), "paint": {\(paint)}}
            """, extraSources: """
            , "lines": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features.joined(separator: ", "))]}}
            """, sprite: "line-patterns")
    }

    /// The colours of `points`, each the name of the nearest of red, blue, green, yellow and white.
    static func names(_ image: RasterImage, _ points: [(x: Int, y: Int)]) -> String {
        let named: [(Character, RGBA)] = [("R", P.red), ("B", P.blue), ("G", green), ("Y", yellow), (".", P.white)]
        return String(points.map { p in
            let c = image.rgba(x: p.x, y: p.y)
            return named.first { T.close(c, $0.1, tolerance: 8) }?.0 ?? "?"
        })
    }

    /// A horizontal line and a vertical one, 4 pixels wide (the image's height): both red and
    /// blue by turns, 4 pixels of each, from where they start.
    @Test func theImageRepeatsAlongHorizontalAndVerticalLines() async throws {
        let style = try Self.style(#""line-pattern": "halves", "line-width": 4"#,
                                   lines: [Self.horizontal, [[5.625, 0], [5.625, 70]]])
        #expect(style.notes.isEmpty, "\(style.notes)")
        let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 4)
        // Rows 126–129; the period starts at column 0 (384 pixels from the line's start).
        for row in 126...129 {
            #expect(Self.names(image, (0..<64).map { ($0, row) }) == String(repeating: "RRRRBBBB", count: 8), "row \(row)")
        }
        // Columns 190–193, drawn north from row 128: the first period is rows 127 up to 120.
        for column in 190...193 {
            let up = Self.names(image, (0..<48).map { (column, 127 - $0) })
            #expect(up == String(repeating: "RRRRBBBB", count: 6), "column \(column): \(up)")
        }
    }

    /// The distance runs on across a corner: 580 pixels east (72½ periods), then north, where the
    /// line goes on in the second half of the image (the first half if it started again).
    @Test func thePatternContinuesAcrossSegments() async throws {
        let corner = 5.625 + 4 * 360 / 4096
        let style = try Self.style(#""line-pattern": "halves", "line-width": 4"#,
                                   lines: [[[-45, 0], [corner, 0], [corner, 70]]])
        let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 4)
        let up = Self.names(image, (4..<36).map { (196, 127 - $0) })
        #expect(up == String(repeating: "RRRRBBBB", count: 4), "\(up)")
    }

    /// As in MapLibre, the image keeps its size along the line whatever the line's width. Across,
    /// its top lies to the line's right; a line as wide as the image or narrower shows its middle
    /// rows at their size.
    @Test func aNarrowLineShowsTheImagesMiddle() async throws {
        for width in [2, 4] {
            let style = try Self.style(#""line-pattern": "quarters", "line-width": \#(width)"#, lines: [Self.horizontal])
            let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 4)
            // Drawn east, the line's right is south (row 128 and below): the image's top.
            #expect(Self.names(image, (0..<16).map { ($0, 128) }) == "RRRRBBBBRRRRBBBB", "width \(width)")
            #expect(Self.names(image, (0..<16).map { ($0, 127) }) == "GGGGYYYYGGGGYYYY", "width \(width)")
            let rows = (100..<156).filter { Self.names(image, [(2, $0)]) != "." }
            #expect(rows == Array(128 - width / 2..<128 + width / 2), "width \(width): \(rows)")
        }
    }

    /// A line wider than the image and a pixel each side stretches them over its width (12 + 1
    /// pixels for 4 + 2 rows, MapLibre's margin counted): the image's top half over about 4 rows
    /// below the middle, its bottom half over 4 above, and at each edge a row of the image's other
    /// side, wrapped. Along the line the period stays 8 pixels.
    @Test func aWideLineStretchesTheImageAcross() async throws {
        let style = try Self.style(#""line-pattern": "quarters", "line-width": 12"#, lines: [Self.horizontal])
        let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 4)
        for (row, colours) in [(122, "RRRRBBBB"), (125, "GGGGYYYY"), (126, "GGGGYYYY"), (129, "RRRRBBBB"), (130, "RRRRBBBB"),
                               (133, "GGGGYYYY")] {
            #expect(Self.names(image, (8..<16).map { ($0, row) }) == colours, "row \(row)")
        }
        let rows = (100..<156).filter { Self.names(image, [(2, $0)]) != "." }
        #expect(rows == Array(122...133), "\(rows)")
    }

    /// Features whose image the sprite lacks are not drawn; the others are, from the same layer.
    @Test func featuresWithoutAnImageAreNotDrawn() async throws {
        let style = try Self.style(##""line-pattern": ["get", "kind"], "line-width": 4, "line-color": "#00ff00""##,
                                   lines: [Self.horizontal, [[-45, 10], [45, 10]]], kinds: ["halves", "absent"])
        #expect(style.notes.isEmpty, "\(style.notes)")
        let (image, viewport) = try await T.render(style, lat: 0, lon: 0, zoom: 4)
        #expect(Self.names(image, (0..<8).map { ($0, 128) }) == "RRRRBBBB")
        let y = Int(viewport.devicePoint(LonLat(lon: 0, lat: 10)).y)
        #expect(Self.names(image, (0..<256).map { ($0, y) }) == String(repeating: ".", count: 256))
    }

    /// An image named the same for every feature and missing from the sprite is named in one warning.
    @Test func aMissingImageIsAWarning() async throws {
        let style = try Self.style(#""line-pattern": "absent", "line-width": 4"#, lines: [Self.horizontal])
        #expect(style.notes.map(\.message) == ["layer 'lines': line-pattern image 'absent' is not in the sprite, so the layer is not drawn"])
        let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 4)
        #expect(Self.names(image, (0..<256).map { ($0, 128) }) == String(repeating: ".", count: 256))
    }

    /// Without a sprite no line is drawn with a pattern (nor in its colour), with one warning.
    @Test func aPatternWithoutASpriteIsANote() async throws {
        let style = try T.style(T.landAndWater + """
            , {"id": "waves", "type": "line", "source": "omt", "source-layer": "water",
               "paint": {"line-pattern": "wave", "line-width": 40}}
            """)
        #expect(style.notes.map(\.message) == ["line patterns are not drawn: the style names no sprite"])
        let (image, _) = try await T.render(style, lat: 43, lon: 5, zoom: 5)
        let (without, _) = try await T.render(try T.style(T.landAndWater), lat: 43, lon: 5, zoom: 5)
        let differing = (0..<image.height).reduce(0) { sum, y in
            sum + (0..<image.width).count { image.rgba(x: $0, y: y) != without.rgba(x: $0, y: y) }
        }
        #expect(differing == 0)
    }

    @Test func lineOpacityAppliesToThePattern() async throws {
        let style = try Self.style(#""line-pattern": "halves", "line-width": 4, "line-opacity": 0.5"#, lines: [Self.horizontal])
        let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 4)
        #expect(T.close(image.rgba(x: 1, y: 128), RGBA(r: 255, g: 128, b: 128)), "\(image.rgba(x: 1, y: 128))")
        #expect(T.close(image.rgba(x: 5, y: 128), RGBA(r: 128, g: 128, b: 255)), "\(image.rgba(x: 5, y: 128))")
    }

    /// At scale 2 the @2x sheet's image, pixel for pixel: 8 green then 8 yellow device pixels.
    @Test func theAt2xSheetIsDrawnAtScaleTwo() async throws {
        let style = try Self.style(#""line-pattern": "halves", "line-width": 4"#, lines: [Self.horizontal])
        let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 4, scale: 2)
        for row in 252...259 {
            #expect(Self.names(image, (0..<32).map { ($0, row) }) == String(repeating: "GGGGGGGGYYYYYYYY", count: 2), "row \(row)")
        }
    }

    /// Blur applies to patterned lines: the pattern fades out at the edges.
    @Test func aPatternIsBlurred() async throws {
        let style = try Self.style(#""line-pattern": "halves", "line-width": 4, "line-blur": 2"#, lines: [Self.horizontal])
        let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 4)
        // Rows 126–129: 4 pixels wide, blur 2, so (as in MapLibre) a third of the red at the
        // edges and two thirds in the middle.
        let column = (125...130).map { image.rgba(x: 1, y: $0) }
        #expect(column[0] == P.white && column[5] == P.white, "\(column)")
        for (row, share) in zip(column[1...4], [1.0 / 3, 2.0 / 3, 2.0 / 3, 1.0 / 3]) {
            #expect(row.r == 255 && abs(Double(row.g) - 255 * (1 - share)) < 8, "\(column)")
        }
    }
}
