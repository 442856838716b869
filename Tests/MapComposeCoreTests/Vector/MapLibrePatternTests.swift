import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// `fill-pattern`: the sprite image repeated over the shape, anchored at the world's corner; and
/// sprites' `@2x` sheets, drawn at output scales of 1.5 and above.
@Suite struct MapLibrePatternTests {
    typealias T = MapLibreStyleTests

    static let red = RGBA(r: 255, g: 0, b: 0), blue = RGBA(r: 0, g: 0, b: 255)
    static let green = RGBA(r: 0, g: 255, b: 0), yellow = RGBA(r: 255, g: 255, b: 0)
    static let white = RGBA(r: 255, g: 255, b: 255)

    /// Writes `<name>.json` and `<name>.png` into `folder`: one icon, `checker`, of 2 × 2
    /// squares `block` pixels wide, `colors.0` at its top-left and bottom-right.
    static func writeSprite(_ folder: TemporaryFolder, name: String, block: Int, colors: (RGBA, RGBA), pixelRatio: Int?) throws {
        let side = 2 * block
        let image = try RasterImage(width: side, height: side) { x, y in (x / block + y / block) % 2 == 0 ? colors.0 : colors.1 }
        try folder.write(try ImageEncoder.png(image), to: "\(name).png")
        let ratio = pixelRatio.map { #", "pixelRatio": \#($0)"# } ?? ""
        try folder.write(#"{"checker": {"x": 0, "y": 0, "width": \#(side), "height": \#(side)\#(ratio)}}"#, to: "\(name).json")
    }

    /// A white map with two squares of the fill `paint`: left of longitude -1 one whose `kind`
    /// is `checker`, right of 1 one whose `kind` names no image of the sprite.
    static func style(_ paint: String, sprite: TemporaryFolder) throws -> MapStyle {
        func square(_ kind: String, _ west: Int, _ east: Int) -> String {
            #"{"type": "Feature", "properties": {"kind": "\#(kind)"}, "geometry": {"type": "Polygon", "coordinates": [[[\#(west), -60], [\#(east), -60], [\#(east), 60], [\#(west), 60], [\#(west), -60]]]}}"#
        }
        return try T.style("""
            {"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
            {"id": "squares", "type": "fill", "source": "squares", "paint": {\(paint)}}
            """, extraSources: """
            , "squares": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
                \(square("checker", -60, -1)), \(square("absent", 1, 60))]}}
            """, sprite: sprite.url.appendingPathComponent("sprite").path)
    }

    /// Pixels of `columns` × `rows` unlike a checker of `block`-pixel squares, `colors.0` first,
    /// anchored `shift` pixels up and left of the image's top-left; with `inner`, only pixels not
    /// on a square's edge are looked at (where a scaled image is blended with its neighbour).
    static func mismatches(_ image: RasterImage, columns: Range<Int>, rows: Range<Int>, block: Int, colors: (RGBA, RGBA),
                           inner: Bool = false, shift: (x: Int, y: Int) = (0, 0)) -> Int {
        var count = 0
        for y in rows {
            for x in columns {
                let wx = x + shift.x, wy = y + shift.y
                if inner, [0, block - 1].contains(wx % block) || [0, block - 1].contains(wy % block) { continue }
                let expected = (wx / block + wy / block) % 2 == 0 ? colors.0 : colors.1
                if !T.close(image.rgba(x: x, y: y), expected) { count += 1 }
            }
        }
        return count
    }

    /// At GL zoom 2 the 256-pixel view centred on (0, 0) starts 896 pixels from the world's
    /// corner, a whole number of 4-pixel periods: the checker is anchored at the image's corner.
    @Test func theSpriteImageRepeatsOverTheFill() async throws {
        let folder = try TemporaryFolder()
        try Self.writeSprite(folder, name: "sprite", block: 2, colors: (Self.red, Self.blue), pixelRatio: 1)
        let style = try Self.style(##""fill-pattern": ["get", "kind"], "fill-color": "#00ff00""##, sprite: folder)
        #expect(style.notes.isEmpty, "\(style.notes)")
        let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 3)
        #expect(Self.mismatches(image, columns: 0..<116, rows: 0..<256, block: 2, colors: (Self.red, Self.blue)) == 0)
        // The square whose image the sprite lacks is not drawn (nor in its fill-color).
        #expect(Self.mismatches(image, columns: 140..<256, rows: 0..<256, block: 256, colors: (Self.white, Self.white)) == 0)
    }

    /// The distances between the left edges of the runs of `color` along row `y`.
    static func periods(_ image: RasterImage, row y: Int, of color: RGBA) -> [Int] {
        let starts = (1..<image.width).filter { T.close(image.rgba(x: $0, y: y), color, tolerance: 60)
            && !T.close(image.rgba(x: $0 - 1, y: y), color, tolerance: 60) }
        return zip(starts.dropFirst(), starts).map { $0 - $1 }
    }

    /// As in MapLibre, a pattern grows by 2^fraction between whole GL zooms (it is laid out in
    /// the tiles of the zoom below and scaled with them), then is its own size again: an 8-pixel
    /// period is 8 at GL zoom 3, 8√2 (11 or 12 pixels) at 3.5, and 8 at 4. (MapLibre Native
    /// draws the same periods at those zooms; before, mapcompose drew 8 at 3.5 and 93 % of the
    /// pixels differed from its render there.)
    @Test func patternsGrowBetweenWholeZooms() async throws {
        let folder = try TemporaryFolder()
        try Self.writeSprite(folder, name: "sprite", block: 4, colors: (Self.red, Self.blue), pixelRatio: 1)
        let style = try Self.style(##""fill-pattern": "checker""##, sprite: folder)
        func periods(_ zoom: Double) async throws -> Set<Int> {
            let (image, _) = try await T.render(style, lat: 0, lon: -30, zoom: zoom)
            return Set(Self.periods(image, row: 130, of: Self.red))
        }
        #expect(try await periods(4) == [8])
        #expect(try await periods(4.5).isSubset(of: [11, 12]))
        #expect(try await periods(4.5).count == 2, "11 and 12 alternate: a period of 11.3")
        #expect(try await periods(5) == [8])
    }

    /// A pattern image named for every feature and missing from the sprite is named in a warning.
    @Test func aMissingImageIsAWarning() throws {
        let folder = try TemporaryFolder()
        try Self.writeSprite(folder, name: "sprite", block: 2, colors: (Self.red, Self.blue), pixelRatio: 1)
        let style = try Self.style(#""fill-pattern": "absent""#, sprite: folder)
        #expect(style.notes.map(\.message) == ["layer 'squares': fill-pattern image 'absent' is not in the sprite, so the layer is not drawn"])
    }

    @Test func fillOpacityAppliesToThePattern() async throws {
        let folder = try TemporaryFolder()
        try Self.writeSprite(folder, name: "sprite", block: 2, colors: (Self.red, Self.blue), pixelRatio: 1)
        let style = try Self.style(#""fill-pattern": "checker", "fill-opacity": 0.5"#, sprite: folder)
        let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 3)
        #expect(T.close(image.rgba(x: 100, y: 100), RGBA(r: 255, g: 128, b: 128)), "\(image.rgba(x: 100, y: 100))")
        #expect(T.close(image.rgba(x: 102, y: 100), RGBA(r: 128, g: 128, b: 255)), "\(image.rgba(x: 102, y: 100))")
    }

    /// At GL zoom 3 the z3 tiles meet at longitude 0 and latitude 0, in the sea: the water of the
    /// four tiles carries one checker, anchored at the world's corner. A 6-pixel period is no
    /// divisor of the 512-pixel tiles, nor of the 1922 pixels from the world's corner to the
    /// view's (centred 2 pixels east of longitude 0), so a checker anchored at each tile's or
    /// the view's corner would not match.
    @Test func patternsLineUpAcrossTileEdges() async throws {
        let folder = try TemporaryFolder()
        try Self.writeSprite(folder, name: "sprite", block: 3, colors: (Self.red, Self.blue), pixelRatio: 1)
        let style = try T.style("""
            {"id": "water", "type": "fill", "source": "omt", "source-layer": "water", "paint": {"fill-pattern": "checker"}}
            """, sprite: folder.url.appendingPathComponent("sprite").path)
        let (image, viewport) = try await T.render(style, lat: 0, lon: 2 * 360 / 4096, zoom: 4)
        let seam = viewport.devicePoint(LonLat(lon: 0, lat: 0))
        #expect(abs(seam.x - 126) < 1e-6 && abs(seam.y - 128) < 1e-6, "\(seam)")
        #expect(Self.mismatches(image, columns: 96..<160, rows: 110..<160, block: 3, colors: (Self.red, Self.blue),
                                shift: (1922, 1920)) == 0)
    }

    @Test func aPatternWithoutASpriteIsANote() async throws {
        let style = try T.style(T.landAndWater + """
            , {"id": "waves", "type": "fill", "source": "omt", "source-layer": "water", "paint": {"fill-pattern": "wave"}}
            """)
        #expect(style.notes.map(\.message) == ["fill patterns are not drawn: the style names no sprite"])
        let (image, viewport) = try await T.render(style, lat: 43, lon: 5, zoom: 5)
        #expect(T.pixel(image, viewport, lat: 41, lon: 5) == T.water)
    }

    // MARK: @2x sheets

    /// The 1x sheet red and blue, the @2x one (icons twice as large) green and yellow.
    static func twoSheets(_ folder: TemporaryFolder, ratioInIndex: Int? = 2) throws {
        try writeSprite(folder, name: "sprite", block: 2, colors: (red, blue), pixelRatio: 1)
        try writeSprite(folder, name: "sprite@2x", block: 4, colors: (green, yellow), pixelRatio: ratioInIndex)
    }

    @Test func theOutputScaleChoosesTheSheet() async throws {
        let folder = try TemporaryFolder()
        try Self.twoSheets(folder)
        let style = try Self.style(#""fill-pattern": "checker""#, sprite: folder)
        #expect(style.notes.isEmpty, "\(style.notes)")
        let (double, _) = try await T.render(style, lat: 0, lon: 0, zoom: 3, scale: 2)
        #expect(Self.mismatches(double, columns: 0..<232, rows: 0..<512, block: 4, colors: (Self.green, Self.yellow)) == 0)
        let (single, _) = try await T.render(style, lat: 0, lon: 0, zoom: 3, scale: 1)
        #expect(Self.mismatches(single, columns: 0..<116, rows: 0..<256, block: 2, colors: (Self.red, Self.blue)) == 0)
    }

    /// Icons of an @2x sheet whose index names no pixel ratio are taken at ratio 2.
    @Test func anAt2xIndexWithoutPixelRatiosMeansTwo() async throws {
        let folder = try TemporaryFolder()
        try Self.twoSheets(folder, ratioInIndex: nil)
        let (double, _) = try await T.render(try Self.style(#""fill-pattern": "checker""#, sprite: folder), lat: 0, lon: 0,
                                             zoom: 3, scale: 2)
        #expect(Self.mismatches(double, columns: 0..<232, rows: 0..<512, block: 4, colors: (Self.green, Self.yellow)) == 0)
    }

    @Test func withoutAnAt2xSheetTheSpriteIsScaled() async throws {
        let folder = try TemporaryFolder()
        try Self.writeSprite(folder, name: "sprite", block: 2, colors: (Self.red, Self.blue), pixelRatio: 1)
        let style = try Self.style(#""fill-pattern": "checker""#, sprite: folder)
        #expect(style.notes.isEmpty, "\(style.notes)")
        let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 3, scale: 2)
        #expect(Self.mismatches(image, columns: 0..<232, rows: 0..<512, block: 4, colors: (Self.red, Self.blue), inner: true) == 0)
    }

    @Test func anUnreadableAt2xSheetIsANoteAndTheSpriteIsDrawn() async throws {
        let folder = try TemporaryFolder()
        try Self.twoSheets(folder)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("sprite@2x.png"))
        let style = try Self.style(#""fill-pattern": "checker""#, sprite: folder)
        #expect(style.notes.count == 1 && style.notes[0].message.hasPrefix("the @2x sheet is not drawn: cannot read"),
                "\(style.notes)")
        let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 3, scale: 2)
        #expect(Self.mismatches(image, columns: 0..<232, rows: 0..<512, block: 4, colors: (Self.red, Self.blue), inner: true) == 0)
    }

    /// Symbols' icons come from the same sheet as patterns.
    @Test func iconsAtTwiceTheScaleComeFromTheAt2xSheet() async throws {
        let folder = try TemporaryFolder()
        try Self.twoSheets(folder)
        let style = try T.style("""
            {"id": "icons", "type": "symbol", "source": "points", "layout": {"icon-image": "checker"}}
            """, extraSources: """
            , "points": {"type": "geojson", "data": {"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 0]}}}
            """, sprite: folder.url.appendingPathComponent("sprite").path)
        let (double, _) = try await T.render(style, lat: 0, lon: 0, zoom: 3, scale: 2)
        // An 8-pixel icon at ratio 2 drawn at scale 2: 8 device pixels centred on (256, 256).
        #expect(double.rgba(x: 253, y: 253) == Self.green && double.rgba(x: 257, y: 253) == Self.yellow)
        let (single, _) = try await T.render(style, lat: 0, lon: 0, zoom: 3, scale: 1)
        #expect(single.rgba(x: 126, y: 126) == Self.red && single.rgba(x: 128, y: 126) == Self.blue)
    }
}
