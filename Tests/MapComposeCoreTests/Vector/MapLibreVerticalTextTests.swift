import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Vertical text (`text-writing-mode`, and CJK text along steep lines) as MapLibre Native sets
/// it: top to bottom, ideographs upright. Labels of 一 (a level stroke) show which way a glyph
/// stands: upright it is a level bar, on its side a vertical one.
@Suite struct MapLibreVerticalTextTests {
    typealias T = MapLibreStyleTests
    typealias S = MapLibreSymbolTests
    typealias C = MapLibreCurvedLabelTests

    /// Where the red pixels of `image` lie, and how many level (and upright) runs of at least
    /// 10 red pixels it has.
    struct Ink {
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
        var levelRuns = 0, uprightRuns = 0
        var width: Int { maxX - minX + 1 }
        var height: Int { maxY - minY + 1 }
        var isEmpty: Bool { minX > maxX }

        init(_ image: RasterImage) {
            for y in 0..<image.height {
                var run = 0
                for x in 0..<image.width {
                    guard S.isRed(image.rgba(x: x, y: y)) else { run = 0; continue }
                    (minX, maxX, minY, maxY) = (min(minX, x), max(maxX, x), min(minY, y), max(maxY, y))
                    run += 1
                    if run == 10 { levelRuns += 1 }
                }
            }
            for x in 0..<image.width {
                var run = 0
                for y in 0..<image.height {
                    guard S.isRed(image.rgba(x: x, y: y)) else { run = 0; continue }
                    run += 1
                    if run == 10 { uprightRuns += 1 }
                }
            }
        }
    }

    /// Points labelled in red at pixel offsets from the middle of a 256² view of (0, 0) at
    /// mapcompose zoom 8, each with its text (and sort key, its index).
    static func points(_ labels: [(text: String, x: Double, y: Double)], layout: String) throws -> MapStyle {
        let features = labels.enumerated().map { index, label -> String in
            let p = C.lonLat(label.x, label.y)
            return #"{"type": "Feature", "properties": {"name": "\#(label.text)", "key": \#(index)}, "geometry": {"type": "Point", "coordinates": [\#(p.lon), \#(p.lat)]}}"#
        }.joined(separator: ", ")
        return try T.style("""
            {"id": "labels", "type": "symbol", "source": "points",
             "layout": {"text-field": ["get", "name"], "text-size": 24, "symbol-sort-key": ["get", "key"]\(layout)},
             "paint": {"text-color": "#ff0000"}}
            """, extraSources: """
            , "points": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features)]}}
            """)
    }

    static func ink(_ style: MapStyle) async throws -> Ink {
        Ink(try await C.render(style).image)
    }

    @Test func verticalPointLabelsRunTopToBottomWithUprightIdeographs() async throws {
        let vertical = try await Self.ink(try Self.points([("一一一", 0, 0)], layout: #", "text-writing-mode": ["vertical"]"#))
        let level = try await Self.ink(try Self.points([("一一一", 0, 0)], layout: ""))
        #expect(vertical.height > 2 * vertical.width, "a column: \(vertical)")
        #expect(vertical.levelRuns >= 3 && vertical.uprightRuns == 0, "three level strokes, one under another: \(vertical)")
        #expect(level.width > 2 * level.height && level.uprightRuns == 0, "a row: \(level)")
        // Centred on the point, as the level label is.
        #expect(abs((vertical.minY + vertical.maxY) / 2 - 128) <= 3 && abs((vertical.minX + vertical.maxX) / 2 - 128) <= 3,
                "\(vertical)")
    }

    @Test func textWithoutUprightCharactersStaysLevel() async throws {
        let latin = try await Self.ink(try Self.points([("Tokyo", 0, 0)], layout: #", "text-writing-mode": ["vertical"]"#))
        #expect(latin.width > 2 * latin.height, "\(latin)")
    }

    /// As in MapLibre Native, the label is anchored as a level line, then turned a quarter turn
    /// clockwise about its point: `top` sets it left of the point, `left` below it.
    @Test(arguments: ["top", "left", "bottom", "right"])
    func anchorsTurnWithTheText(_ anchor: String) async throws {
        let ink = try await Self.ink(try Self.points([("一一一", 0, 0)],
                                                    layout: #", "text-writing-mode": ["vertical"], "text-anchor": "\#(anchor)""#))
        let middle = (x: (ink.minX + ink.maxX) / 2, y: (ink.minY + ink.maxY) / 2)
        switch anchor {
        case "top": #expect(ink.maxX < 128 && abs(middle.y - 128) <= 3, "left of the point: \(ink)")
        case "left": #expect(ink.minY >= 128 && abs(middle.x - 128) <= 3, "below the point: \(ink)")
        case "bottom": #expect(ink.minX >= 128 && abs(middle.y - 128) <= 3, "right of the point: \(ink)")
        default: #expect(ink.maxY < 128 && abs(middle.x - 128) <= 3, "above the point: \(ink)")
        }
    }

    /// `["horizontal", "vertical"]`: a label whose level place is taken by an earlier one is set
    /// vertically where that fits; with `["horizontal"]` it is left out.
    @Test func aVerticalPlaceIsTriedWhenTheLevelOneIsTaken() async throws {
        let labels = [("一一一一", 0.0, 0.0), ("一一一一", 72.0, 0.0)]
        let both = try await C.render(try Self.points(labels, layout: #", "text-writing-mode": ["horizontal", "vertical"]"#)).image
        let levelOnly = try await C.render(try Self.points(labels, layout: #", "text-writing-mode": ["horizontal"]"#)).image
        let second = 190..<220, rows = 0..<256
        #expect(S.redPixels(levelOnly, columns: second, rows: rows) == 0)
        let column = S.redPixels(both, columns: second, rows: rows)
        #expect(column > 50, "the second label, vertical: \(column) red pixels")
        let redRows = rows.filter { S.redPixels(both, columns: second, rows: $0..<($0 + 1)) > 0 }
        #expect((redRows.last ?? 0) - (redRows.first ?? 0) > 60 && redRows.contains { $0 < 128 } && redRows.contains { $0 > 128 },
                "a column through the point: rows \(redRows)")
    }

    /// Along a line running down the map, CJK text is set top to bottom with its ideographs
    /// upright (where Latin text, or CJK text with `text-keep-upright: false`, lies on its side).
    @Test func ideographsStandUprightAlongSteepLines() async throws {
        let down = [[(0.0, -110.0), (0.0, 110.0)]]
        let upright = try await Self.ink(try C.style(down, layout: #""text-field": "一一一一", "text-size": 24"#))
        let sideways = try await Self.ink(try C.style(down, layout: #""text-field": "一一一一", "text-size": 24, "text-keep-upright": false"#))
        #expect(upright.height > 2 * upright.width && upright.levelRuns >= 4 && upright.uprightRuns == 0, "\(upright)")
        #expect(sideways.uprightRuns > 0 && sideways.levelRuns == 0, "\(sideways)")
        // A line more across than down keeps the text along it.
        let shallow = try await Self.ink(try C.style([[(-110.0, -40.0), (110.0, 40.0)]], layout: #""text-field": "一一一一", "text-size": 24"#))
        #expect(shallow.width > 2 * shallow.height, "\(shallow)")
    }

    /// Vertical text along a steep line reads top to bottom whichever way the line is drawn
    /// (and whichever way it leans): 一二三 has one level stroke at the top, three at the bottom.
    @Test(arguments: [[(10.0, -110.0), (-10.0, 110.0)], [(-10.0, 110.0), (10.0, -110.0)],
                      [(-10.0, -110.0), (10.0, 110.0)], [(10.0, 110.0), (-10.0, -110.0)]])
    func verticalTextAlongALineReadsDownWhicheverWayItIsDrawn(_ line: [(Double, Double)]) async throws {
        let (image, _) = try await C.render(try C.style([line], layout: #""text-field": "一二三", "text-size": 24"#))
        let ink = Ink(image)
        #expect(ink.height > 2 * ink.width, "\(ink)")
        let third = ink.height / 3
        let top = try image.cropped(x: 0, y: 0, width: 256, height: ink.minY + third)
        let bottom = try image.cropped(x: 0, y: ink.maxY - third, width: 256, height: 256 - (ink.maxY - third))
        #expect(Ink(top).levelRuns < Ink(bottom).levelRuns, "一 above 三: \(Ink(top)) \(Ink(bottom))")
    }
}
