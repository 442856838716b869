import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// `text-overlap` and `icon-overlap`: `never`, `always` and `cooperative`, in place of the
/// allow-overlap flags where a layer sets them.
@Suite struct MapLibreSymbolOverlapTests {
    typealias T = MapLibreStyleTests
    typealias O = MapLibreSymbolOrderTests

    /// Two symbol layers labelling the same point with "MMM": `upper` (red, placed first) and
    /// `lower` (blue), each with its own layout added; the red and blue pixels drawn.
    static func colours(upper: String, lower: String) async throws -> (red: Int, blue: Int) {
        let style = try T.style("""
            {"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
            {"id": "lower", "type": "symbol", "source": "point",
             "layout": {"text-field": "MMM", "text-size": 40, "text-offset": [0, 0.5]\(lower)},
             "paint": {"text-color": "#0000ff"}},
            {"id": "upper", "type": "symbol", "source": "point",
             "layout": {"text-field": "MMM", "text-size": 40\(upper)},
             "paint": {"text-color": "#ff0000"}}
            """, extraSources: """
            , "point": {"type": "geojson", "data": {"type": "Feature", "properties": {},
                        "geometry": {"type": "Point", "coordinates": [0, 0]}}}
            """)
        #expect(style.notes.isEmpty, "\(style.notes)")
        let image = try await T.render(style, lat: 0, lon: 0, zoom: 3).image
        return (O.count(image, O.isRed), O.count(image, O.isBlue))
    }

    @Test func overlapModesDecideWhetherALabelOverAnotherIsKept() async throws {
        let hidden = try await Self.colours(upper: "", lower: "")
        #expect(hidden.red > 200 && hidden.blue == 0, "never (the default): the lower layer's label is left out")
        let always = try await Self.colours(upper: "", lower: #", "text-overlap": "always""#)
        #expect(always.red > 200 && always.blue > 200, "always: kept over the other")
        // text-overlap, where set, wins over text-allow-overlap.
        let never = try await Self.colours(upper: "", lower: #", "text-allow-overlap": true, "text-overlap": "never""#)
        #expect(never.blue == 0)
        let allowed = try await Self.colours(upper: "", lower: #", "text-allow-overlap": true"#)
        #expect(allowed.blue > 200)
        // cooperative: kept over a label kept with always or cooperative, not over one kept with never.
        let overNever = try await Self.colours(upper: "", lower: #", "text-overlap": "cooperative""#)
        #expect(overNever.blue == 0, "cooperative over never: left out")
        let overCooperative = try await Self.colours(upper: #", "text-overlap": "cooperative""#,
                                                     lower: #", "text-overlap": "cooperative""#)
        #expect(overCooperative.red > 200 && overCooperative.blue > 200, "cooperative over cooperative: kept")
        let overAlways = try await Self.colours(upper: #", "text-overlap": "always""#, lower: #", "text-overlap": "cooperative""#)
        #expect(overAlways.blue > 200, "cooperative over always: kept")
    }

    /// `symbol-avoid-edges` changes nothing: labels are placed once for the whole map and never
    /// cut at a tile's edge. It is read without a warning.
    @Test func symbolAvoidEdgesIsReadSilently() async throws {
        let plain = try await Self.colours(upper: "", lower: "")
        let avoiding = try await Self.colours(upper: #", "symbol-avoid-edges": true"#, lower: "")
        #expect(plain == avoiding)
    }
}
