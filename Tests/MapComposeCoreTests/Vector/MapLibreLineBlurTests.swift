import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// `line-blur`: the line keeps its width and its alpha ramps linearly over blur + 1 pixels from
/// half a pixel outside its edge, as MapLibre draws it.
@Suite struct MapLibreLineBlurTests {
    typealias T = MapLibreStyleTests

    /// Blue lines along the equator (between rows 127 and 128 of a 256-pixel view at zoom 4,
    /// centred on 0, 0) over white, with the line paint `paint`; each feature's `blur` is its property.
    static func style(_ paint: String, blurs: [Double] = [0]) throws -> MapStyle {
        let features = blurs.map { blur in
            #"{"type": "Feature", "properties": {"blur": \#(blur)}, "geometry": {"type": "LineString", "coordinates": [[-40, 0], [40, 0]]}}"#
        }
        return try T.style("""
            {"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
            {"id": "line", "type": "line", "source": "line", "paint": {"line-color": "#0000ff", \(paint)}}
            """, extraSources: """
            , "line": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features.joined(separator: ", "))]}}
            """)
    }

    /// How much of the blue each row of column 128 shows, 0…1, rows `rows`.
    static func coverage(_ image: RasterImage, rows: ClosedRange<Int>) -> [Double] {
        rows.map { 1 - Double(image.rgba(x: 128, y: $0).r) / 255 }
    }

    /// Width 10, blur 4: the line spans rows 123–132 and each edge ramps over 5 rows, a fifth
    /// more of the blue per row, to the full colour at the middle.
    @Test func theEdgesRampLinearlyOverTheBlur() async throws {
        let style = try Self.style(#""line-width": 10, "line-blur": 4"#)
        #expect(style.notes.isEmpty, "\(style.notes)")
        let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 4)
        let top = Self.coverage(image, rows: 122...128), bottom = Self.coverage(image, rows: 127...133).reversed().map { $0 }
        for profile in [top, bottom] {
            #expect(profile[0] == 0, "outside: \(profile)")
            // The edge row and the three inside it, strictly rising, about a fifth apart.
            for i in 1...4 { #expect(profile[i] > profile[i - 1], "\(profile)") }
            for (i, expected) in [0.2, 0.4, 0.6, 0.8].enumerated() {
                #expect(abs(profile[i + 1] - expected) < 0.04, "row \(i + 1) of \(profile)")
            }
            #expect(profile[5] == 1 && profile[6] == 1, "middle: \(profile)")
        }
    }

    @Test func withoutBlurTheEdgeIsSharp() async throws {
        let (image, _) = try await T.render(try Self.style(#""line-width": 10"#), lat: 0, lon: 0, zoom: 4)
        #expect(Self.coverage(image, rows: 122...133) == [0] + Array(repeating: 1, count: 10) + [0])
    }

    /// A data-driven blur: one feature blurred, one not, drawn apart.
    @Test func blurMayVaryByFeature() async throws {
        let style = try Self.style(#""line-width": 10, "line-blur": ["get", "blur"], "line-offset": ["*", 12, ["get", "blur"]]"#,
                                   blurs: [0, 2])
        let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 4)
        // Blur 0 on rows 123–132; blur 2, 24 pixels further down, on rows 147–156 with 3-row ramps.
        #expect(Self.coverage(image, rows: 122...124) == [0, 1, 1])
        let blurred = Self.coverage(image, rows: 146...150)
        #expect(blurred[0] == 0 && abs(blurred[1] - 1.0 / 3) < 0.04 && abs(blurred[2] - 2.0 / 3) < 0.04 && blurred[3] == 1,
                "\(blurred)")
    }

    /// With a gap, each side fades inward from its outer edge and, as in MapLibre, from its
    /// inner edge on into the gap: width 4, gap 6 and blur 2 put full alpha on the two rows
    /// 3–5 pixels from the middle, thirds either side of them.
    @Test func aGapFadesIntoTheGap() async throws {
        let style = try Self.style(#""line-width": 4, "line-gap-width": 6, "line-blur": 2"#)
        let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 4)
        let below = Self.coverage(image, rows: 128...135)
        for (row, expected) in zip(below, [0, 1.0 / 3, 2.0 / 3, 1, 1, 2.0 / 3, 1.0 / 3, 0]) {
            #expect(abs(row - expected) < 0.04, "\(below)")
        }
        #expect(Self.coverage(image, rows: 120...127) == below.reversed())
    }

    /// Round caps fade at the line's ends too; butt caps end where the line does.
    @Test func roundCapsFadeAtTheEnds() async throws {
        func end(_ cap: String) async throws -> [Double] {
            let style = try T.style("""
                {"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
                {"id": "line", "type": "line", "source": "line", "layout": {"line-cap": "\(cap)"},
                 "paint": {"line-color": "#0000ff", "line-width": 10, "line-blur": 4}}
                """, extraSources: """
                , "line": {"type": "geojson", "data": {"type": "Feature", "properties": {},
                           "geometry": {"type": "LineString", "coordinates": [[0, 0], [40, 0]]}}}
                """)
            let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 4)
            return (122...133).map { 1 - Double(image.rgba(x: $0, y: 127).r) / 255 }
        }
        let round = try await end("round"), butt = try await end("butt")
        // The line starts at column 128: a round cap reaches 5 pixels further, rising to full alpha.
        #expect(butt[0..<6].allSatisfy { $0 == 0 } && butt[6] > 0.9, "\(butt)")
        // MapLibre's alpha at the pixels' centres, 3.5 to 0.7 pixels from the end: 0.39, 0.59, 0.78, 0.96.
        #expect(round[0] == 0, "\(round)")
        for (i, expected) in [0.39, 0.59, 0.78, 0.96].enumerated() {
            #expect(abs(round[i + 2] - expected) < 0.1, "column \(124 + i) of \(round)")
        }
    }
}
