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

    /// The red columns of each of the two lines of a label: above and below the first row free
    /// of red under the first red one.
    static func lineSpans(_ image: RasterImage) -> (top: ClosedRange<Int>, bottom: ClosedRange<Int>)? {
        func isRedRow(_ y: Int) -> Bool { (0..<image.width).contains { isRed(image.rgba(x: $0, y: y)) } }
        guard let first = (0..<image.height).first(where: isRedRow),
              let split = (first..<image.height).first(where: { !isRedRow($0) }) else { return nil }
        func span(_ rows: Range<Int>) -> ClosedRange<Int>? {
            let columns = (0..<image.width).filter { x in rows.contains { isRed(image.rgba(x: x, y: $0)) } }
            return columns.first.map { $0...columns.last! }
        }
        guard let top = span(0..<split), let bottom = span(split..<image.height) else { return nil }
        return (top, bottom)
    }

    /// `text-justify` lines up the lines of a point label: a short second line under a long
    /// first one starts where it starts (left), ends where it ends (right) or sits in its middle.
    @Test func textJustifyLinesUpTheLinesOfALabel() async throws {
        func render(_ justify: String, anchor: String = "center") async throws -> (top: ClosedRange<Int>, bottom: ClosedRange<Int>) {
            let style = try T.style("""
                {"id": "labels", "type": "symbol", "source": "points",
                 "layout": {"text-field": "Sankt-Peterburg\\nSPb", "text-size": 20, "text-justify": "\(justify)",
                            "text-anchor": "\(anchor)"},
                 "paint": {"text-color": "#ff0000"}}
                """, extraSources: """
                , "points": {"type": "geojson", "data": {"type": "Feature", "properties": {},
                             "geometry": {"type": "Point", "coordinates": [0, 0]}}}
                """)
            #expect(style.notes.isEmpty, "\(style.notes)")
            let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 3, width: 320, height: 256)
            return try #require(Self.lineSpans(image))
        }
        let left = try await render("left"), right = try await render("right"), center = try await render("center")
        for spans in [left, right, center] {
            #expect(spans.top.count > 2 * spans.bottom.count, "the first line is the longer: \(spans)")
        }
        #expect(abs(left.bottom.lowerBound - left.top.lowerBound) <= 2, "\(left)")
        #expect(abs(right.bottom.upperBound - right.top.upperBound) <= 2, "\(right)")
        let middle = { (r: ClosedRange<Int>) in Double(r.lowerBound + r.upperBound) / 2 }
        #expect(abs(middle(center.bottom) - middle(center.top)) <= 2, "\(center)")
        #expect(left.bottom.lowerBound < center.bottom.lowerBound - 20 && center.bottom.lowerBound < right.bottom.lowerBound - 20)
        // auto follows the anchor: a label right of its anchor point ("left") is left-justified.
        let auto = try await render("auto", anchor: "left")
        #expect(abs(auto.bottom.lowerBound - auto.top.lowerBound) <= 2, "\(auto)")
    }

    /// The lines of a point label are `text-line-height` ems apart, as MapLibre sets them.
    @Test(arguments: [1.2, 2.0])
    func linesOfALabelAreTheLineHeightApart(_ lineHeight: Double) async throws {
        let style = try T.style("""
            {"id": "labels", "type": "symbol", "source": "points",
             "layout": {"text-field": "HHHH\\nHHHH", "text-size": 20, "text-line-height": \(lineHeight)},
             "paint": {"text-color": "#ff0000"}}
            """, extraSources: """
            , "points": {"type": "geojson", "data": {"type": "Feature", "properties": {},
                         "geometry": {"type": "Point", "coordinates": [0, 0]}}}
            """)
        let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 3)
        let redRows = (0..<image.height).filter { y in (0..<image.width).contains { Self.isRed(image.rgba(x: $0, y: y)) } }
        // The H's tops: the first red row, and the first after the gap between the lines.
        let first = try #require(redRows.first)
        let second = try #require(zip(redRows, redRows.dropFirst()).first { $1 > $0 + 1 }?.1)
        #expect(abs(Double(second - first) - 20 * lineHeight) <= 1, "tops at \(first) and \(second)")
        // Centred on the point as a block.
        #expect(abs(Double(first + redRows.last!) / 2 - 128) <= 2, "\(first)…\(redRows.last!)")
    }

    /// A long name is broken into lines of about equal length, as MapLibre breaks it: "Central
    /// African / Republic" in two lines at `text-max-width` 6, where filling each line would
    /// make three ("Central / African / Republic").
    @Test func longNamesBreakIntoBalancedLines() async throws {
        let style = try T.style("""
            {"id": "labels", "type": "symbol", "source": "points",
             "layout": {"text-field": "Central African Republic", "text-size": 16, "text-max-width": 6},
             "paint": {"text-color": "#ff0000"}}
            """, extraSources: """
            , "points": {"type": "geojson", "data": {"type": "Feature", "properties": {},
                         "geometry": {"type": "Point", "coordinates": [0, 0]}}}
            """)
        let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 3)
        let redRows = (0..<image.height).filter { y in (0..<image.width).contains { Self.isRed(image.rgba(x: $0, y: y)) } }
        let bands = 1 + zip(redRows, redRows.dropFirst()).count { $1 > $0 + 1 }
        #expect(bands == 2, "lines of text: \(bands)")
        let widest = (0..<image.width).filter { x in redRows.contains { Self.isRed(image.rgba(x: x, y: $0)) } }
        #expect((widest.last ?? 0) - (widest.first ?? 0) > 96, "the first line runs past the width: \(widest.first ?? 0)…\(widest.last ?? 0)")
    }

    /// MapLibre's variable offsets (evaluateVariableOffset, in 24-pixel ems): radial offsets
    /// point away from the anchor, diagonally for corners; text-offset's distances lose their
    /// signs; above and below, 7/24 em less.
    @Test func variableOffsetsAreMapLibres() {
        func px(_ anchor: String, radial: Double? = nil, offset: (Double, Double) = (0, 0)) -> [Double] {
            let p = MapLibrePainter.variableOffset(anchor, radial: radial.map { $0 / 24 }, offset: (offset.0 / 24, offset.1 / 24)) * 24
            return [(p.x * 1e6).rounded() / 1e6, (p.y * 1e6).rounded() / 1e6]
        }
        #expect(px("center", radial: 10) == [0, 0])
        #expect(px("top", radial: 10) == [0, 3])
        #expect(px("bottom", radial: 10) == [0, -3])
        #expect(px("left", radial: 10) == [10, 0])
        #expect(px("right", radial: 10) == [-10, 0])
        let h = ((10 / 2.0.squareRoot()) * 1e6).rounded() / 1e6
        #expect(px("top-left", radial: 10) == [h, ((10 / 2.0.squareRoot() - 7) * 1e6).rounded() / 1e6])
        #expect(px("bottom-right", radial: 10) == [-h, ((-10 / 2.0.squareRoot() + 7) * 1e6).rounded() / 1e6])
        #expect(px("top", radial: -5) == [0, -7], "a negative radial offset is none")
        #expect(px("top-right", offset: (-4, -12)) == [-4, 5])
        #expect(px("bottom-left", offset: (4, 12)) == [4, -5])
        #expect(px("left", offset: (-4, 12)) == [4, 0])
        // text-variable-anchor-offset: each anchor's own [x, y], in order; anything else left out.
        let pairs = MapLibrePainter.anchorOffsets(.array([.string("top"), .array([.number(0), .number(1)]), .string("nowhere"),
                                                          .array([.number(1), .number(1)]), .string("left"), .numberArray([0.5, 0])]))
        #expect(pairs?.map(\.name) == ["top", "left"])
        #expect(pairs?.map(\.offset.y) == [1, 0])
        #expect(MapLibrePainter.anchorOffsets(.array([.string("top")])) == nil)
    }

    /// Two labels at one point in two colours: the first (sort key 0) to the right of it; the
    /// second may go right of it (taken) or left of it, and goes left.
    @Test(arguments: [#""text-variable-anchor": ["left", "right"], "text-radial-offset": 0.5"#,
                      #""text-variable-anchor-offset": ["left", [0.5, 0], "right", [-0.5, 0]]"#])
    func aVariableAnchorTakesTheFirstPlaceWhereTheLabelFits(_ anchors: String) async throws {
        func render(_ variable: String?) async throws -> RasterImage {
            let features = [("Eastwards", "#ff0000", 0), ("Westwards", "#0000ff", 1)].map { name, colour, key in
                #"{"type": "Feature", "properties": {"name": "\#(name)", "colour": "\#(colour)", "key": \#(key)}, "geometry": {"type": "Point", "coordinates": [0, 0]}}"#
            }.joined(separator: ", ")
            let anchors = variable.map { ", " + $0 } ?? ""
            let style = try T.style("""
                {"id": "labels", "type": "symbol", "source": "points",
                 "layout": {"text-field": ["get", "name"], "text-size": 20, "symbol-sort-key": ["get", "key"],
                            "text-anchor": "left", "text-offset": [0.5, 0]\(anchors)},
                 "paint": {"text-color": ["get", "colour"]}}
                """, extraSources: """
                , "points": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features)]}}
                """)
            #expect(style.notes.isEmpty, "\(style.notes)")
            return try await T.render(style, lat: 0, lon: 0, zoom: 3, width: 320, height: 256).image
        }
        func isBlue(_ p: RGBA) -> Bool { p.b > 150 && p.r < 110 && p.g < 110 && p.a > 100 }
        func count(_ image: RasterImage, columns: Range<Int>, _ test: (RGBA) -> Bool) -> Int {
            (100..<156).reduce(0) { sum, y in sum + columns.count { test(image.rgba(x: $0, y: y)) } }
        }
        let fixed = try await render(nil)
        #expect(count(fixed, columns: 160..<320, Self.isRed) > 50)
        #expect(count(fixed, columns: 0..<320, isBlue) == 0, "one place only: the second label is left out")
        let variable = try await render(anchors)
        #expect(count(variable, columns: 160..<320, Self.isRed) > 50, "the first label keeps its place")
        #expect(count(variable, columns: 0..<160, isBlue) > 50, "the second goes left of the point")
        #expect(count(variable, columns: 160..<320, isBlue) == 0)
    }

    /// With `text-radial-offset`, a label hung from its top sits that many ems below its point
    /// (less MapLibre's 7/24 em); none of it is above the point.
    @Test func aRadialOffsetMovesTheLabelAwayFromItsPoint() async throws {
        func firstRedRow(radial: Double) async throws -> Int? {
            let style = try T.style("""
                {"id": "labels", "type": "symbol", "source": "points",
                 "layout": {"text-field": "Offset", "text-size": 24, "text-variable-anchor": ["top"],
                            "text-radial-offset": \(radial)},
                 "paint": {"text-color": "#ff0000"}}
                """, extraSources: """
                , "points": {"type": "geojson", "data": {"type": "Feature", "properties": {},
                             "geometry": {"type": "Point", "coordinates": [0, 0]}}}
                """)
            let image = try await T.render(style, lat: 0, lon: 0, zoom: 3, width: 256, height: 256).image
            return (0..<256).first { y in (0..<256).contains { Self.isRed(image.rgba(x: $0, y: y)) } }
        }
        let near = try #require(try await firstRedRow(radial: 0.5)), far = try #require(try await firstRedRow(radial: 2.5))
        #expect(near >= 128 - 2, "nothing above the point: \(near)")
        #expect(abs(Double(far - near) - 2 * 24) <= 2, "two ems further: \(near) → \(far)")
    }

    /// Two points 45 pixels apart, each with the sprite's `halves` icon (8 × 4, scaled by 3)
    /// and a label; the second's label (sort key 1) lies on the first's. `layout` is added.
    static func iconsAndLabels(_ layout: String) async throws -> RasterImage {
        let features = [(0.0, "Alphabetical", 0), (1.0, "Alphabetical", 1)].map { lon, name, key in
            #"{"type": "Feature", "properties": {"name": "\#(name)", "key": \#(key)}, "geometry": {"type": "Point", "coordinates": [\#(lon), 0]}}"#
        }.joined(separator: ", ")
        let style = try T.style("""
            {"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
            {"id": "labels", "type": "symbol", "source": "points",
             "layout": {"text-field": ["get", "name"], "text-size": 16, "text-anchor": "top", "text-offset": [0, 0.6],
                        "icon-image": "halves", "icon-size": 3, "symbol-sort-key": ["get", "key"]\(layout)},
             "paint": {"text-color": "#000000"}}
            """, extraSources: """
            , "points": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features)]}}
            """, sprite: "line-patterns")
        #expect(style.notes.isEmpty, "\(style.notes)")
        return try await T.render(style, lat: 0, lon: 0, zoom: 6, width: 256, height: 256).image
    }

    /// The icons drawn: runs of the sprite's red half along the row through the points.
    static func iconCount(_ image: RasterImage) -> Int {
        var runs = 0, inRun = false
        for x in 0..<image.width {
            let red = isRed(image.rgba(x: x, y: 128))
            if red, !inRun { runs += 1 }
            inRun = red
        }
        return runs
    }

    /// `text-optional`: where the text collides and the icon fits, the icon is kept alone;
    /// without it the whole symbol is left out. `icon-padding` widens the icon's box.
    @Test func optionalTextAndIconPadding() async throws {
        #expect(Self.iconCount(try await Self.iconsAndLabels("")) == 1, "the second symbol's text collides: left out")
        #expect(Self.iconCount(try await Self.iconsAndLabels(#", "text-optional": true"#)) == 2, "its icon kept alone")
        #expect(Self.iconCount(try await Self.iconsAndLabels(#", "text-optional": true, "icon-padding": 40"#)) == 1,
                "icons 45 px apart collide with 40 px of padding")
    }

    /// One label "Halo" at the centre of a white 256² map, black on a blue halo, with `paint`
    /// added to its paint properties.
    static func haloLabel(_ paint: String) async throws -> RasterImage {
        let style = try T.style("""
            {"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
            {"id": "labels", "type": "symbol", "source": "points",
             "layout": {"text-field": "Halo", "text-size": 32},
             "paint": {"text-color": "#000000", "text-halo-color": "#0000ff", "text-halo-width": 2\(paint)}}
            """, extraSources: """
            , "points": {"type": "geojson", "data": {"type": "Feature", "properties": {},
                         "geometry": {"type": "Point", "coordinates": [0, 0]}}}
            """)
        #expect(style.notes.isEmpty, "\(style.notes)")
        return try await T.render(style, lat: 0, lon: 0, zoom: 3, width: 256, height: 256).image
    }

    static func pixels(_ image: RasterImage, _ test: (RGBA) -> Bool) -> Int {
        (0..<image.height).reduce(0) { sum, y in sum + (0..<image.width).count { test(image.rgba(x: $0, y: y)) } }
    }

    /// `text-halo-blur` fades the halo's edge from 1.19 × blur inside it to as far outside (as
    /// MapLibre's shader does): the halo reaches further out, and less of it is solid.
    @Test func haloBlurFadesTheHalosEdge() async throws {
        let sharp = try await Self.haloLabel(""), blurred = try await Self.haloLabel(#", "text-halo-blur": 2"#)
        let tinted = { (p: RGBA) in Int(p.b) > Int(p.r) + 12 }, solid = { (p: RGBA) in p.b > 200 && p.r < 40 && p.g < 40 }
        let (sharpTinted, blurredTinted) = (Self.pixels(sharp, tinted), Self.pixels(blurred, tinted))
        let (sharpSolid, blurredSolid) = (Self.pixels(sharp, solid), Self.pixels(blurred, solid))
        #expect(sharpTinted > 300 && sharpSolid > 100, "the sharp halo is drawn: \(sharpTinted), \(sharpSolid)")
        #expect(Double(blurredTinted) > 1.3 * Double(sharpTinted), "reaches further: \(sharpTinted) → \(blurredTinted)")
        #expect(Double(blurredSolid) < 0.5 * Double(sharpSolid), "fades: \(sharpSolid) → \(blurredSolid)")
        // The glyphs are the same black letters either way.
        let black = { (p: RGBA) in p.r < 40 && p.g < 40 && p.b < 40 }
        #expect(abs(Self.pixels(sharp, black) - Self.pixels(blurred, black)) <= Self.pixels(sharp, black) / 10)
    }

    /// `text-translate` moves the text (and its box) by that many pixels.
    @Test func textTranslateMovesTheText() async throws {
        func rows(_ image: RasterImage) -> ClosedRange<Int>? {
            let dark = (0..<image.height).filter { y in (0..<image.width).contains { let p = image.rgba(x: $0, y: y); return p.r < 40 && p.b < 40 } }
            return dark.first.map { $0...dark.last! }
        }
        let still = try #require(rows(try await Self.haloLabel("")))
        let moved = try #require(rows(try await Self.haloLabel(#", "text-translate": [0, 30]"#)))
        #expect(moved.lowerBound - still.lowerBound == 30 && moved.upperBound - still.upperBound == 30, "\(still) → \(moved)")
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
        #expect(MapLibrePainter.anchors(in: 0...1000, spacing: 250) == [125, 375, 625, 875])
        #expect(MapLibrePainter.anchors(in: 0...1000, spacing: nil) == [500])
        #expect(MapLibrePainter.anchors(in: 100...300, spacing: 250) == [200])
        // A line's stretches inside a rectangle, measured along the whole line.
        let path = LabelPath([.init(-100, 50), .init(300, 50), .init(300, 60), .init(-100, 60)])
        let rect = MapLibrePainter.Rect(minX: 0, minY: 0, maxX: 200, maxY: 100)
        #expect(path.ranges(inside: rect) == [100...300, 510...710])
    }

    @Test func turnsAreAddedUpWithinAWindow() {
        // Two turns of 30° five pixels apart, then one of 30° fifty pixels on.
        let turn = Double.pi / 6
        let a = LabelPath.Point(100 + 5 * cos(turn), 5 * sin(turn))
        let b = a + LabelPath.Point(50 * cos(2 * turn), 50 * sin(2 * turn))
        let path = LabelPath([.init(0, 0), .init(100, 0), a, b, b + LabelPath.Point(0, 50)])
        #expect(abs(path.sharpestBend(from: 0, to: path.length, window: 10) - 2 * turn) < 1e-9)
        #expect(abs(path.sharpestBend(from: 0, to: path.length, window: 3) - turn) < 1e-9)
        #expect(path.sharpestBend(from: 0, to: 99, window: 10) == 0)
    }

    @Test func letterSpacingWidensLatinButNotJoinedScripts() async throws {
        func width(_ text: String, spacing: Double) async throws -> Int {
            let style = try T.style(##"""
                {"id": "names", "type": "symbol", "source": "points",
                 "layout": {"text-field": "\##(text)", "text-size": 16, "text-letter-spacing": \##(spacing)},
                 "paint": {"text-color": "#ff0000"}}
                """##, extraSources: """
                , "points": {"type": "geojson", "data": {"type": "Feature", "properties": {},
                             "geometry": {"type": "Point", "coordinates": [0, 0]}}}
                """)
            #expect(style.notes.isEmpty, "\(style.notes)")
            return Self.redBox(try await T.render(style, lat: 0, lon: 0, zoom: 3).image).0
        }
        let latin = try await width("Spaced", spacing: 0), spaced = try await width("Spaced", spacing: 0.5)
        #expect(spaced >= latin + 5 * 7, "\(latin) → \(spaced)")  // half an em (8 px) more between each of 6 letters
        let arabic = try await width("شارع", spacing: 0), arabicSpaced = try await width("شارع", spacing: 0.5)
        #expect(arabic > 10 && arabicSpaced == arabic)
    }

    static func iconStyle(_ layout: String, sprite: String? = "sprite") throws -> MapStyle {
        try T.style("""
            {"id": "icons", "type": "symbol", "source": "points", "layout": {\(layout)}}
            """, extraSources: """
            , "points": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
                {"type": "Feature", "properties": {"kind": "disc"}, "geometry": {"type": "Point", "coordinates": [-15, 0]}},
                {"type": "Feature", "properties": {"kind": "square"}, "geometry": {"type": "Point", "coordinates": [15, 0]}}]}}
            """, sprite: sprite)
    }

    @Test func iconsFromTheSprite() async throws {
        let style = try Self.iconStyle(#""icon-image": "{kind}", "icon-size": 2"#)
        #expect(style.notes.isEmpty, "\(style.notes)")
        let (image, viewport) = try await T.render(style, lat: 0, lon: 0, zoom: 3)
        let disc = viewport.devicePoint(LonLat(lon: -15, lat: 0)), square = viewport.devicePoint(LonLat(lon: 15, lat: 0))
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

    /// A label of more characters than `maxLabelCharacters` is left out (wrapping one takes time
    /// growing faster than its length); one of exactly that many is drawn. The characters are
    /// zero-width spaces between two "X"s, so both labels are the same small mark.
    @Test func aLabelOfTooManyCharactersIsLeftOut() async throws {
        func redPixels(characters: Int) async throws -> Int {
            let text = "X" + String(repeating: "\u{200B}", count: characters - 2) + "X"
            #expect(text.unicodeScalars.count == characters)
            let style = try T.style("""
                {"id": "labels", "type": "symbol", "source": "points",
                 "layout": {"text-field": ["get", "name"], "text-size": 20},
                 "paint": {"text-color": "#ff0000"}}
                """, extraSources: """
                , "points": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
                  {"type": "Feature", "properties": {"name": "\(text)"}, "geometry": {"type": "Point", "coordinates": [0, 0]}}]}}
                """)
            let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 3)
            return Self.redPixels(image, columns: 0..<256, rows: 0..<256)
        }
        let limit = MapLibrePainter.maxLabelCharacters
        #expect(try await redPixels(characters: limit) > 20)
        #expect(try await redPixels(characters: limit + 1) == 0)
    }
}

/// Text along lines bent with the line: glyphs follow curves, read upright, are left out where
/// the line turns too sharply or is too short, and collide glyph by glyph.
@Suite struct MapLibreCurvedLabelTests {
    typealias T = MapLibreStyleTests
    typealias S = MapLibreSymbolTests
    static let zoom = 8.0

    /// The longitude and latitude `x`, `y` pixels (y down) from the middle of a view of (0, 0)
    /// at `zoom`.
    static func lonLat(_ x: Double, _ y: Double) -> (lon: Double, lat: Double) {
        let world = 256 * pow(2, zoom)
        return (x / world * 360, atan(sinh(-2 * .pi * y / world)) * 180 / .pi)
    }

    /// A style that labels `lines` (pixels from the middle of the view) in red with `layout`
    /// (at their middles unless it says otherwise).
    static func style(_ lines: [[(Double, Double)]], layout: String, paint: String = "") throws -> MapStyle {
        let layout = layout.contains("symbol-placement") ? layout : #""symbol-placement": "line-center", "# + layout
        let features = lines.map { line -> String in
            let coordinates = line.map { point -> String in
                let p = lonLat(point.0, point.1)
                return "[\(p.lon), \(p.lat)]"
            }.joined(separator: ", ")
            return #"{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [\#(coordinates)]}}"#
        }.joined(separator: ", ")
        return try T.style("""
            {"id": "names", "type": "symbol", "source": "lines",
             "layout": {\(layout)}, "paint": {"text-color": "#ff0000"\(paint)}}
            """, extraSources: """
            , "lines": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features)]}}
            """)
    }

    static func render(_ style: MapStyle) async throws -> (image: RasterImage, viewport: Viewport) {
        #expect(style.notes.isEmpty, "\(style.notes)")
        return try await T.render(style, lat: 0, lon: 0, zoom: zoom)
    }

    /// Pixels within `radius` of `point` (pixels from the middle of the view) that pass `test`.
    static func count(_ image: RasterImage, _ viewport: Viewport, near point: (Double, Double), radius: Double = 4,
                      _ test: (RGBA) -> Bool = S.isRed) -> Int {
        let p = lonLat(point.0, point.1), c = viewport.devicePoint(LonLat(lon: p.lon, lat: p.lat))
        var n = 0
        for y in Int(c.y - radius)...Int(c.y + radius) {
            for x in Int(c.x - radius)...Int(c.x + radius) where x >= 0 && y >= 0 && x < image.width && y < image.height {
                let dx = Double(x) + 0.5 - c.x, dy = Double(y) + 0.5 - c.y
                if dx * dx + dy * dy <= radius * radius, test(image.rgba(x: x, y: y)) { n += 1 }
            }
        }
        return n
    }

    static func arc(center: (Double, Double), radius: Double, from a0: Double, to a1: Double, steps: Int = 64) -> [(Double, Double)] {
        (0...steps).map { i in
            let a = a0 + (a1 - a0) * Double(i) / Double(steps)
            return (center.0 + radius * cos(a), center.1 + radius * sin(a))
        }
    }

    /// With `text-rotation-alignment: viewport`, a label along a diagonal line is set level at
    /// its anchor: a short, wide run of red, where the bent label climbs with the line.
    @Test func textAlignedToTheViewportStaysLevelAlongALine() async throws {
        let diagonal = [[(-100.0, 100.0), (100.0, -100.0)]]
        func redRows(_ alignment: String) async throws -> (rows: Int, columns: Int) {
            let style = try Self.style(diagonal, layout: #""text-field": "Diagonal Road", "text-size": 16, "text-rotation-alignment": "\#(alignment)""#)
            let (image, _) = try await Self.render(style)
            let red = (0..<image.height).flatMap { y in (0..<image.width).compactMap { x in S.isRed(image.rgba(x: x, y: y)) ? (x, y) : nil } }
            let rows = Set(red.map(\.1)), columns = Set(red.map(\.0))
            return (rows.count, columns.count)
        }
        let bent = try await redRows("map"), level = try await redRows("viewport")
        #expect(bent.rows > 40, "bent along the diagonal: \(bent)")
        #expect(level.rows < 20 && level.columns > 60, "level: \(level)")
    }

    /// With `text-rotation-alignment: viewport-glyph`, each glyph of a label along a diagonal
    /// line stands upright where it falls on the line: the label climbs with the line (as with
    /// `map`), and its I's are vertical strokes (where `map` slants them with the line).
    @Test func viewportGlyphSetsUprightGlyphsAlongALine() async throws {
        let diagonal = [[(-100.0, 100.0), (100.0, -100.0)]]
        func measure(_ alignment: String) async throws -> (rows: Int, tallRuns: Int) {
            let style = try Self.style(diagonal, layout: #""text-field": "IIIIIIII", "text-size": 24, "text-rotation-alignment": "\#(alignment)""#)
            let (image, _) = try await Self.render(style)
            var rows = Set<Int>(), tallRuns = 0
            for x in 0..<image.width {
                var run = 0
                for y in 0..<image.height {
                    if S.isRed(image.rgba(x: x, y: y)) {
                        rows.insert(y)
                        run += 1
                        if run == 12 { tallRuns += 1 }
                    } else {
                        run = 0
                    }
                }
            }
            return (rows.count, tallRuns)
        }
        let bent = try await measure("map"), upright = try await measure("viewport-glyph")
        #expect(bent.rows > 40 && upright.rows > 40, "both climb with the line: \(bent), \(upright)")
        #expect(bent.tallRuns == 0, "slanted strokes: \(bent)")
        #expect(upright.tallRuns >= 8, "a vertical stroke for each I: \(upright)")
    }

    @Test func textBendsAlongAnArc() async throws {
        // A quarter circle from heading right (at its top) to heading down (at its right end).
        let r = 150.0, center = (-75.0, 75.0)
        let line = Self.arc(center: center, radius: r, from: -.pi / 2, to: 0)
        let style = try Self.style([line], layout: #""text-field": "Bent along a quarter circle", "text-size": 16"#,
                                   paint: ##", "text-halo-color": "#00ff00", "text-halo-width": 2"##)
        let (image, viewport) = try await Self.render(style)
        // Text and halo along both ends of the arc, 10° to 16° and 74° to 80° round it. A straight
        // label tangent to the middle of the arc lies 18 pixels or more from those stretches.
        func near(_ degrees: ClosedRange<Double>, _ test: @escaping (RGBA) -> Bool) -> Int {
            stride(from: degrees.lowerBound, through: degrees.upperBound, by: 1).reduce(0) { sum, d in
                let a = -Double.pi / 2 + d * .pi / 180
                return sum + Self.count(image, viewport, near: (center.0 + r * cos(a), center.1 + r * sin(a)), radius: 3, test)
            }
        }
        let green: (RGBA) -> Bool = { $0.g > 150 && $0.r < 110 && $0.b < 110 && $0.a > 100 }
        #expect(near(10...16, S.isRed) > 0 && near(74...80, S.isRed) > 0)
        #expect(near(10...16, green) > 0 && near(74...80, green) > 0)
    }

    @Test func textAlongALineDrawnRightToLeftReadsUpright() async throws {
        let line = Self.arc(center: (0, 50), radius: 100, from: .pi, to: 2 * .pi)  // left to right over the top
        let layout = #""text-field": "Upright text", "text-size": 16"#
        let (forward, _) = try await Self.render(try Self.style([line], layout: layout))
        let (backward, _) = try await Self.render(try Self.style([line.reversed()], layout: layout))
        let (upsideDown, _) = try await Self.render(try Self.style([line.reversed()], layout: layout + #", "text-keep-upright": false"#))
        func differing(_ a: RasterImage, _ b: RasterImage) -> Int {
            (0..<a.height).reduce(0) { sum, y in sum + (0..<a.width).count { !T.close(a.rgba(x: $0, y: y), b.rgba(x: $0, y: y), tolerance: 60) } }
        }
        let all = 0..<256
        #expect(S.redPixels(forward, columns: all, rows: all) > 100)
        #expect(differing(forward, backward) < 10)
        #expect(differing(forward, upsideDown) > 100)
    }

    @Test func aLineTurningMoreThanTheMaxAngleIsNotLabelled() async throws {
        // Segments at ±45°: the line turns 90° every 20 pixels.
        let line: [(Double, Double)] = (0...12).map { (i: Int) -> (Double, Double) in (Double(20 * i - 120), i % 2 == 0 ? -10 : 10) }
        let layout = #""text-field": "ZIGZAG", "text-size": 14"#
        let (sharp, _) = try await Self.render(try Self.style([line], layout: layout))
        let (allowed, _) = try await Self.render(try Self.style([line], layout: layout + #", "text-max-angle": 180"#))
        let all = 0..<256
        #expect(S.redPixels(sharp, columns: all, rows: all) == 0)
        #expect(S.redPixels(allowed, columns: all, rows: all) > 50)
    }

    @Test func aLabelLongerThanItsLineIsNotPlaced() async throws {
        let layout = #""symbol-placement": "line", "text-field": "LONGER THAN ITS LINE", "text-size": 12"#
        let (short, _) = try await Self.render(try Self.style([[(-20, 0), (20, 0)]], layout: layout))
        let (long, _) = try await Self.render(try Self.style([[(-150, 0), (150, 0)]], layout: layout))
        let all = 0..<256
        #expect(S.redPixels(short, columns: all, rows: all) == 0)
        #expect(S.redPixels(long, columns: all, rows: all) > 50)
    }

    @Test func labelsAlongCloseParallelLinesAreBothPlaced() async throws {
        // Two diagonal lines 40 pixels apart: the upright box of either label, straight, would
        // cover the other's line; the boxes of their glyphs do not.
        let s = 1 / 2.0.squareRoot()
        func line(_ side: Double) -> [(Double, Double)] {
            [(20 * side * s - 120 * s, -20 * side * s - 120 * s), (20 * side * s + 120 * s, -20 * side * s + 120 * s)]
        }
        let style = try Self.style([line(1), line(-1)], layout: #""text-field": "PARALLEL STREET", "text-size": 12"#)
        let (image, viewport) = try await Self.render(style)
        let middle = viewport.devicePoint(LonLat(lon: 0, lat: 0))
        var sides = (above: 0, below: 0)
        for y in 0..<image.height {
            for x in 0..<image.width where S.isRed(image.rgba(x: x, y: y)) {
                // Which side of the diagonal through the middle the pixel is on.
                if Double(x) - middle.x > Double(y) - middle.y { sides.above += 1 } else { sides.below += 1 }
            }
        }
        #expect(sides.above > 50 && sides.below > 50, "\(sides)")
    }

    @Test func textOffsetMovesALabelAcrossAndAlongItsLine() async throws {
        // A level line through the middle of the view (row 128), 12 px text.
        let line = [[(-120.0, 0.0), (120.0, 0.0)]]
        func rows(_ offset: String) async throws -> (above: Int, below: Int, left: Int, right: Int) {
            let layout = #""text-field": "OFFSET", "text-size": 12"# + offset
            let (image, _) = try await Self.render(try Self.style(line, layout: layout))
            let all = 0..<256
            return (S.redPixels(image, columns: all, rows: 100..<126), S.redPixels(image, columns: all, rows: 131..<156),
                    S.redPixels(image, columns: 0..<128, rows: all), S.redPixels(image, columns: 128..<256, rows: all))
        }
        let centred = try await rows("")
        let above = try await rows(#", "text-offset": [0, -1.5]"#)
        let below = try await rows(#", "text-offset": [0, 1.5]"#)
        let ahead = try await rows(#", "text-offset": [5, 0]"#)
        #expect(centred.left > 20 && centred.right > 20, "\(centred)")
        #expect(above.above > 50 && above.below == 0, "\(above)")
        #expect(below.below > 50 && below.above == 0, "\(below)")
        // Five ems (60 px) on along the line: the label lies right of the middle.
        #expect(ahead.left == 0 && ahead.right > 50, "\(ahead)")
    }

    /// The `halves` icon (left half red, right half blue) at 4×, 32 × 16 px, on one point or
    /// along one line, with `layout`.
    static func halves(_ geometry: String, layout: String) throws -> MapStyle {
        try T.style("""
            {"id": "icons", "type": "symbol", "source": "g",
             "layout": {"icon-image": "halves", "icon-size": 4, "icon-allow-overlap": true\(layout)}}
            """, extraSources: """
            , "g": {"type": "geojson", "data": {"type": "Feature", "properties": {}, "geometry": \(geometry)}}
            """, sprite: "line-patterns")
    }

    /// Red and blue pixels above and below the middle row, near the middle column.
    static func halvesAt(_ style: MapStyle) async throws -> (redAbove: Int, redBelow: Int, redLeft: Int, redRight: Int) {
        let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: zoom)
        let near = 96..<160
        return (S.redPixels(image, columns: near, rows: 96..<128), S.redPixels(image, columns: near, rows: 128..<160),
                S.redPixels(image, columns: 96..<128, rows: near), S.redPixels(image, columns: 128..<160, rows: near))
    }

    @Test func iconsTurnByIconRotateAndAlongTheirLine() async throws {
        let point = #"{"type": "Point", "coordinates": [0, 0]}"#
        let upright = try await Self.halvesAt(try Self.halves(point, layout: ""))
        #expect(upright.redLeft > 50 && upright.redRight == 0, "\(upright)")
        // 90° clockwise: the red left half turns to the top.
        let turned = try await Self.halvesAt(try Self.halves(point, layout: #", "icon-rotate": 90"#))
        #expect(turned.redAbove > 50 && turned.redBelow == 0, "\(turned)")
        // Along a line running down the view the icon turns with it; aligned to the viewport it stays upright.
        let (top, bottom) = (Self.lonLat(0, -100), Self.lonLat(0, 100))
        let down = #"{"type": "LineString", "coordinates": [[\#(top.lon), \#(top.lat)], [\#(bottom.lon), \#(bottom.lat)]]}"#
        let along = try await Self.halvesAt(try Self.halves(down, layout: #", "symbol-placement": "line-center""#))
        #expect(along.redAbove > 50 && along.redBelow == 0, "\(along)")
        let viewport = try await Self.halvesAt(try Self.halves(
            down, layout: #", "symbol-placement": "line-center", "icon-rotation-alignment": "viewport""#))
        #expect(viewport.redLeft > 50 && viewport.redRight == 0, "\(viewport)")
    }

    /// `icon-keep-upright`: along a line running right to left, the icon turns half round so it
    /// is not upside down; without it, it is turned with the line.
    @Test func iconsKeptUprightAlongALineRunningLeft() async throws {
        let (right, left) = (Self.lonLat(100, 0), Self.lonLat(-100, 0))
        let leftward = #"{"type": "LineString", "coordinates": [[\#(right.lon), \#(right.lat)], [\#(left.lon), \#(left.lat)]]}"#
        let turned = try await Self.halvesAt(try Self.halves(leftward, layout: #", "symbol-placement": "line-center""#))
        #expect(turned.redRight > 50 && turned.redLeft == 0, "upside down with the line: \(turned)")
        let upright = try await Self.halvesAt(try Self.halves(
            leftward, layout: #", "symbol-placement": "line-center", "icon-keep-upright": true"#))
        #expect(upright.redLeft > 50 && upright.redRight == 0, "kept upright: \(upright)")
    }
}
