import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Sprite icons stored as signed distance fields (`"sdf": true`), drawn in `icon-color` with an
/// `icon-halo-color` band, as MapLibre's SDF shader draws them. The fixture sprite
/// (scripts/fixtures/make_sdf_sprite.py) holds a disc of radius 10 px as a field.
@Suite struct MapLibreSDFIconTests {
    typealias T = MapLibreStyleTests
    typealias O = MapLibreSymbolOrderTests

    /// The `icon` at the middle of a white 256² map with `paint` added to the layer's paint.
    static func render(_ icon: String, paint: String = "", layout: String = "") async throws -> RasterImage {
        let style = try T.style("""
            {"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
            {"id": "icons", "type": "symbol", "source": "point",
             "layout": {"icon-image": "\(icon)"\(layout)}, "paint": {"icon-opacity": 1\(paint)}}
            """, extraSources: """
            , "point": {"type": "geojson", "data": {"type": "Feature", "properties": {},
                        "geometry": {"type": "Point", "coordinates": [0, 0]}}}
            """, sprite: "sdf")
        #expect(style.notes.isEmpty, "\(style.notes)")
        return try await T.render(style, lat: 0, lon: 0, zoom: 3).image
    }

    static func isBlack(_ p: RGBA) -> Bool { p.r < 60 && p.g < 60 && p.b < 60 }

    @Test func aFieldIsDrawnInItsColourToItsEdge() async throws {
        let red = O.count(try await Self.render("dot", paint: ##", "icon-color": "#ff0000""##), O.isRed)
        // The disc: π · 10² ≈ 314 pixels, its edge smoothed over about a pixel.
        #expect(abs(red - 314) <= 40, "red disc: \(red) px")
        // icon-color defaults to black, as in MapLibre.
        let black = O.count(try await Self.render("dot"), Self.isBlack)
        #expect(abs(black - 314) <= 40, "black disc: \(black) px")
        // Twice the size: four times the area.
        let doubled = O.count(try await Self.render("dot", paint: ##", "icon-color": "#ff0000""##, layout: #", "icon-size": 2"#),
                              O.isRed)
        #expect(abs(Double(doubled) / Double(red) - 4) < 0.5, "\(red) → \(doubled)")
    }

    @Test func theHaloIsABandOutsideTheEdge() async throws {
        let image = try await Self.render("dot", paint: ##", "icon-color": "#ff0000", "icon-halo-color": "#0000ff", "icon-halo-width": 2"##)
        let red = O.count(image, O.isRed), blue = O.count(image, O.isBlue)
        // A ring from radius 10 to 12: π · (12² − 10²) ≈ 138 pixels.
        #expect(abs(red - 314) <= 40, "the disc keeps its size: \(red)")
        #expect(blue > 80 && blue < 200, "the halo ring: \(blue)")
        let blurred = O.count(try await Self.render("dot", paint: ##", "icon-color": "#ff0000", "icon-halo-color": "#0000ff", "icon-halo-width": 2, "icon-halo-blur": 2"##),
                              { $0.b > 40 && $0.r < 200 && $0.g < 200 && $0.b > $0.r })
        #expect(blurred > blue, "a blurred halo reaches further: \(blue) → \(blurred)")
    }

    /// An icon that is not a field is drawn as its pixels: icon-color does not change it.
    @Test func anIconThatIsNotAFieldKeepsItsPixels() async throws {
        let plain = try await Self.render("square")
        let tinted = try await Self.render("square", paint: ##", "icon-color": "#ff0000""##)
        #expect(O.count(tinted, O.isRed) == 0)
        #expect(O.count(plain, { $0.r < 250 }) == O.count(tinted, { $0.r < 250 }))
    }
}
