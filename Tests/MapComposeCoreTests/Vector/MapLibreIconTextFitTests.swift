import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// `icon-text-fit`: a sprite icon stretched round its label as MapLibre stretches it. The sprite
/// is Tests/Fixtures/MapLibre/text-fit (scripts/fixtures/make_text_fit_sprite.py): `frame`, a
/// 3-pixel red border round a white middle that stretches and holds the text, and `plain`, the
/// same image without stretch zones.
@Suite struct MapLibreIconTextFitTests {
    typealias T = MapLibreStyleTests

    @Test func theContentBoxIsLaidOverTheFittedRectangleAndOnlyTheZonesStretch() {
        let pieces = FittedIcon.pieces(size: 20, zones: [3...17], content: 3...17, fit: 100...200, scale: 1)
        #expect(pieces == [.init(source: 0...3, target: 97...100), .init(source: 3...17, target: 100...200),
                           .init(source: 17...20, target: 200...203)])
        // Twice the scale: the fixed parts twice as long, the zone still fills the rest.
        let doubled = FittedIcon.pieces(size: 20, zones: [3...17], content: 3...17, fit: 100...200, scale: 2)
        #expect(doubled.map(\.target) == [94...100, 100...200, 200...206])
        // No zones: the whole image is scaled evenly so its content fits.
        let even = FittedIcon.pieces(size: 20, zones: [], content: nil, fit: 0...40, scale: 1)
        #expect(even == [.init(source: 0...20, target: 0...40)])
        // A rectangle shorter than the content's fixed parts: scaled evenly too.
        let squeezed = FittedIcon.pieces(size: 20, zones: [8...12], content: nil, fit: 0...10, scale: 1)
        #expect(squeezed == [.init(source: 0...20, target: 0...10)])
    }

    /// A white map with "Wide label text" at its centre on the icon `icon`, `fit` as said.
    static func render(icon: String, fit: String, padding: String = "[2, 4, 2, 4]") async throws -> RasterImage {
        let style = try T.style("""
            {"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
            {"id": "labels", "type": "symbol", "source": "points",
             "layout": {"text-field": "Wide label text", "text-size": 16, "icon-image": "\(icon)",
                        "icon-text-fit": "\(fit)", "icon-text-fit-padding": \(padding)},
             "paint": {"text-color": "#000000"}}
            """, extraSources: """
            , "points": {"type": "geojson", "data": {"type": "Feature", "properties": {},
                         "geometry": {"type": "Point", "coordinates": [0, 0]}}}
            """, sprite: "text-fit")
        #expect(style.notes.isEmpty, "\(style.notes)")
        return try await T.render(style, lat: 0, lon: 0, zoom: 3, width: 256, height: 256).image
    }

    static func isRed(_ p: RGBA) -> Bool { p.r > 200 && p.g < 80 && p.b < 80 }
    static func isBlack(_ p: RGBA) -> Bool { p.r < 80 && p.g < 80 && p.b < 80 }

    /// The runs of red along row `y`, as column ranges.
    static func redRuns(_ image: RasterImage, row y: Int) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = [], start: Int?
        for x in 0...image.width {
            let red = x < image.width && isRed(image.rgba(x: x, y: y))
            if red, start == nil { start = x }
            if !red, let s = start { runs.append(s...(x - 1)); start = nil }
        }
        return runs
    }

    /// The columns and rows of the label's black text.
    static func textBounds(_ image: RasterImage) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
        var xs: [Int] = [], ys: [Int] = []
        for y in 0..<image.height {
            for x in 0..<image.width where isBlack(image.rgba(x: x, y: y)) {
                xs.append(x)
                ys.append(y)
            }
        }
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return nil }
        return (x0...x1, y0...y1)
    }

    @Test func aFrameStretchesRoundItsTextKeepingItsBorder() async throws {
        let image = try await Self.render(icon: "frame", fit: "both")
        let text = try #require(Self.textBounds(image))
        let middle = (text.rows.lowerBound + text.rows.upperBound) / 2
        let runs = Self.redRuns(image, row: middle)
        try #require(runs.count == 2, "a left and a right border: \(runs)")
        // The borders keep their 3 pixels (one more where an edge falls inside a pixel).
        #expect(runs.allSatisfy { (2...4).contains($0.count) }, "\(runs)")
        // The text lies within the frame's middle, 4 pixels of padding either side.
        #expect(runs[0].upperBound < text.columns.lowerBound && text.columns.upperBound < runs[1].lowerBound)
        let inside = runs[1].lowerBound - runs[0].upperBound - 1, textWidth = text.columns.count
        #expect(inside >= textWidth + 4 && inside <= textWidth + 14, "middle \(inside) for text \(textWidth)")
        // And down: a border above and below the text.
        let column = (text.columns.lowerBound + text.columns.upperBound) / 2
        let above = (0..<text.rows.lowerBound).filter { Self.isRed(image.rgba(x: column, y: $0)) }
        let below = (text.rows.upperBound..<image.height).filter { Self.isRed(image.rgba(x: column, y: $0)) }
        #expect((2...4).contains(above.count) && (2...4).contains(below.count), "\(above) \(below)")
    }

    /// The same image without stretch zones is scaled whole: its border grows with it, about
    /// the text's width over 20 pixels (to 20 or more), under the text's ends.
    @Test func anIconWithoutZonesStretchesWhole() async throws {
        let framed = try await Self.render(icon: "frame", fit: "both"), plain = try await Self.render(icon: "plain", fit: "both")
        let text = try #require(Self.textBounds(plain))
        let row = (text.rows.lowerBound + text.rows.upperBound) / 2
        let red = { (image: RasterImage) in (0..<image.width).count { Self.isRed(image.rgba(x: $0, y: row)) } }
        #expect(red(plain) > 4 * red(framed), "\(red(plain)) against \(red(framed))")
        let runs = Self.redRuns(plain, row: row)
        #expect(runs.first.map { $0.upperBound >= text.columns.lowerBound - 1 } ?? false, "the left border reaches the text: \(runs)")
    }

    /// Sizes, paddings and offsets no map can hold give no fitted icon (and no trap).
    @Test func absurdValuesDrawNoFittedIcon() async throws {
        let sprite = SpriteIcon(image: try RasterImage(width: 20, height: 16), pixelRatio: 1)
        for (left, right, scale) in [(Double.nan, 10.0, 1.0), (0, .infinity, 1), (-1e300, 1e300, 1), (0, 10, 0), (0, 10, .nan)] {
            let fitted = FittedIcon(sprite, left: left, top: 0, right: right, bottom: 10, scale: scale, fitsWidth: true, fitsHeight: true)
            #expect(fitted.columns.isEmpty && fitted.rows.isEmpty, "\(left) \(right) \(scale)")
        }
        let style = try T.style("""
            {"id": "labels", "type": "symbol", "source": "points",
             "layout": {"text-field": "Far", "text-size": 1e308, "icon-image": "frame", "icon-size": 1e-300,
                        "icon-text-fit": "both", "icon-text-fit-padding": [1e308, -1e308, 5, 5], "text-radial-offset": 1e308,
                        "text-variable-anchor-offset": ["top", [1e308, -1e308], "left", [0, 0]]},
             "paint": {"text-color": "#000000", "text-halo-color": "#ffffff", "text-halo-width": 1e308, "text-halo-blur": 1e308,
                       "text-translate": [1e308, -1e308], "icon-translate": [-1e308, 1e308]}}
            """, extraSources: """
            , "points": {"type": "geojson", "data": {"type": "Feature", "properties": {},
                         "geometry": {"type": "Point", "coordinates": [0, 0]}}}
            """, sprite: "text-fit")
        _ = try await T.render(style, lat: 0, lon: 0, zoom: 3, width: 256, height: 256)
    }

    @Test func widthAloneKeepsTheIconsHeight() async throws {
        let image = try await Self.render(icon: "frame", fit: "width")
        let text = try #require(Self.textBounds(image))
        let column = (text.columns.lowerBound + text.columns.upperBound) / 2
        let red = (0..<image.height).filter { Self.isRed(image.rgba(x: column, y: $0)) }
        let frame = try #require(red.first.map { $0...red.last! })
        #expect((15...17).contains(frame.count), "the icon's own 16 rows: \(frame)")
        let runs = Self.redRuns(image, row: (frame.lowerBound + frame.upperBound) / 2)
        #expect(runs.count == 2 && runs[1].lowerBound - runs[0].upperBound > text.columns.count, "\(runs)")
    }
}
