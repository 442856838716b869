import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// `line-gradient`: a line coloured by `line-progress`, 0 at its feature's start and 1 at its
/// end, on GeoJSON sources with `lineMetrics`, as MapLibre draws it.
@Suite struct MapLibreLineGradientTests {
    typealias T = MapLibreStyleTests

    /// Lines over white drawn with `paint` (and `layout`), from the GeoJSON `geometry`, its
    /// source's `lineMetrics` as given.
    static func style(_ paint: String, layout: String = "", geometry: String = #"{"type": "LineString", "coordinates": [[-40, 0], [40, 0]]}"#,
                      lineMetrics: Bool? = true) throws -> MapStyle {
        let metrics = lineMetrics.map { #", "lineMetrics": \#($0)"# } ?? ""
        return try T.style("""
            {"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
            {"id": "line", "type": "line", "source": "line", "layout": {"line-cap": "butt"\(layout)}, "paint": {\(paint)}}
            """, extraSources: """
            , "line": {"type": "geojson"\(metrics), "data": {"type": "Feature", "properties": {}, "geometry": \(geometry)}}
            """)
    }

    static let redToBlue = ##""line-width": 10, "line-gradient": ["interpolate", ["linear"], ["line-progress"], 0, "#ff0000", 1, "#0000ff"]"##

    /// The line from 40° W to 40° E at zoom 3 (GL 2) spans 455 of 512 pixels; `column` says
    /// where along it, 0…1.
    static func column(_ progress: Double) -> Int { Int((256 + (progress - 0.5) * 455.1).rounded(.down)) }

    @Test func theColourFollowsTheProgressAlongTheLine() async throws {
        let style = try Self.style(Self.redToBlue)
        #expect(style.notes.isEmpty, "\(style.notes)")
        let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 3, width: 512, height: 64)
        for progress in [0.05, 0.25, 0.5, 0.75, 0.95] {
            let p = image.rgba(x: Self.column(progress), y: 32)
            let red = 255 * (1 - progress), blue = 255 * progress
            #expect(abs(Double(p.r) - red) <= 4 && abs(Double(p.b) - blue) <= 4 && p.g == 0 && p.a == 255,
                    "at \(progress): \(p), expected r \(red) b \(blue)")
        }
        // The gradient is drawn through the line's coverage: its width and no more.
        #expect(T.run(image, column: 256, of: RGBA(r: 128, g: 0, b: 128)) == 10)
    }

    /// A step between samples: MapLibre reads its 256 samples linearly, so the change spans at most
    /// two pixels here.
    @Test func aStepChangesColourAtItsProgress() async throws {
        let style = try Self.style(##""line-width": 10, "line-gradient": ["step", ["line-progress"], "#ff0000", 0.5, "#0000ff"]"##)
        let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 3, width: 512, height: 64)
        let middle = Self.column(0.5)
        #expect(image.rgba(x: middle - 3, y: 32) == RGBA(r: 255, g: 0, b: 0))
        #expect(image.rgba(x: middle + 3, y: 32) == RGBA(r: 0, g: 0, b: 255))
    }

    /// Round a corner the colour runs on: the progress counts the whole line, both legs.
    @Test func theProgressRunsRoundCorners() async throws {
        let style = try Self.style(Self.redToBlue, layout: #", "line-join": "round""#,
                                   geometry: #"{"type": "LineString", "coordinates": [[-40, -20], [0, 20], [40, -20]]}"#)
        let (image, viewport) = try await T.render(style, lat: 0, lon: 0, zoom: 3, width: 512, height: 320)
        let top = T.pixel(image, viewport, lat: 19.5, lon: 0)
        #expect(abs(Int(top.r) - Int(top.b)) <= 12 && top.r > 100, "the corner is half way: \(top)")
        let start = viewport.devicePoint(LonLat(lon: -39, lat: -19)), end = viewport.devicePoint(LonLat(lon: 39, lat: -19))
        let first = image.rgba(x: Int(start.x), y: Int(start.y)), last = image.rgba(x: Int(end.x), y: Int(end.y))
        #expect(first.r > 240 && first.b < 15, "\(first)")
        #expect(last.b > 240 && last.r < 15, "\(last)")
    }

    /// Each line of a MultiLineString runs from 0 to 1 (as MapLibre GL JS measures them).
    @Test func eachPartOfAMultiLineHasItsOwnProgress() async throws {
        let style = try Self.style(Self.redToBlue, geometry: #"{"type": "MultiLineString", "coordinates": [[[-40, 10], [40, 10]], [[-40, -10], [40, -10]]]}"#)
        let (image, viewport) = try await T.render(style, lat: 0, lon: 0, zoom: 3, width: 512, height: 256)
        for lat in [10.0, -10.0] {
            let start = T.pixel(image, viewport, lat: lat, lon: -38), end = T.pixel(image, viewport, lat: lat, lon: 38)
            #expect(start.r > 240 && start.b < 15, "\(lat): \(start)")
            #expect(end.b > 240 && end.r < 15, "\(lat): \(end)")
        }
    }

    /// Without line metrics there is no progress: the whole line is drawn in the gradient's
    /// colour at 0, as MapLibre Native draws it, and the style says why.
    @Test func withoutLineMetricsTheLineTakesTheStartColour() async throws {
        for metrics in [false, nil] as [Bool?] {
            let style = try Self.style(Self.redToBlue, lineMetrics: metrics)
            #expect(style.notes.map(\.message) == ["layer 'line': line-gradient needs a geojson source with \"lineMetrics\": true; the line is drawn in the gradient's colour at its start"])
            let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 3, width: 512, height: 64)
            for progress in [0.05, 0.5, 0.95] {
                #expect(image.rgba(x: Self.column(progress), y: 32) == RGBA(r: 255, g: 0, b: 0))
            }
        }
    }

    /// Dashes and patterns take the gradient's place, as in MapLibre: dashes are drawn in `line-color`.
    @Test func dashesTakeTheGradientsPlace() async throws {
        let style = try Self.style(Self.redToBlue + ##", "line-color": "#00ff00", "line-dasharray": [2, 1]"##)
        #expect(style.notes.map(\.message) == ["layer 'line': line-gradient not drawn: line-dasharray takes its place"])
        let (image, _) = try await T.render(style, lat: 0, lon: 0, zoom: 3, width: 512, height: 64)
        let row = (Self.column(0)..<Self.column(1)).map { image.rgba(x: $0, y: 32) }
        #expect(row.count { $0 == RGBA(r: 0, g: 255, b: 0) } > 200)
        #expect(row.count { $0 == RGBA(r: 255, g: 255, b: 255) } > 100, "gaps between the dashes")
        #expect(row.count { $0.r > 200 && $0.g < 50 } == 0, "no gradient")
    }

    /// `line-opacity` applies to the gradient; so do the gap and the offset.
    @Test func opacityGapAndOffsetApply() async throws {
        let faded = try Self.style(Self.redToBlue + #", "line-opacity": 0.5"#)
        let (image, _) = try await T.render(faded, lat: 0, lon: 0, zoom: 3, width: 512, height: 64)
        let p = image.rgba(x: Self.column(0.05), y: 32)
        #expect(abs(Int(p.r) - 249) <= 3 && abs(Int(p.g) - 128) <= 3 && abs(Int(p.b) - 134) <= 3, "\(p)")
        let gapped = try Self.style(Self.redToBlue + #", "line-gap-width": 6, "line-offset": 20"#)
        let (lines, _) = try await T.render(gapped, lat: 0, lon: 0, zoom: 3, width: 512, height: 128)
        // Moved 20 pixels down: a 6-pixel gap on row 84 between two 10-pixel sides.
        let column = (0..<128).map { lines.rgba(x: Self.column(0.95), y: $0) }
        #expect(column[84] == RGBA(r: 255, g: 255, b: 255), "the gap")
        #expect(column.count { $0.b > 230 && $0.r < 30 } == 20, "both sides in the end colour")
        #expect(column[54] == RGBA(r: 255, g: 255, b: 255), "nothing on the line's own place")
    }

    /// A colour ramp reads only `line-progress`: feature data and zoom are errors with the key path.
    @Test func aGradientReadsOnlyTheProgress() {
        let base = #"{"version": 8, "sources": {"l": {"type": "geojson", "lineMetrics": true, "data": {"type": "FeatureCollection", "features": []}}}, "layers": [{"id": "g", "type": "line", "source": "l", "paint": {"line-gradient": GRADIENT}}]}"#
        let data = T.problems(base.replacingOccurrences(of: "GRADIENT", with: #"["to-color", ["get", "colour"]]"#))
        #expect(data.map(\.keyPath) == ["layers[0].paint.line-gradient"] && data.first?.message == "data expressions not supported",
                "\(data)")
        let zoom = T.problems(base.replacingOccurrences(of: "GRADIENT", with: #"["interpolate", ["linear"], ["zoom"], 0, "red", 5, "blue"]"#))
        #expect(zoom.map(\.keyPath) == ["layers[0].paint.line-gradient"] && zoom.first?.message == "zoom expressions not supported",
                "\(zoom)")
        let metrics = T.problems(base.replacingOccurrences(of: "\"lineMetrics\": true", with: "\"lineMetrics\": \"yes\"")
            .replacingOccurrences(of: "GRADIENT", with: "\"red\""))
        #expect(metrics.map(\.keyPath) == ["sources.l.lineMetrics"], "\(metrics)")
    }

    /// The stops of one segment: its ends and the samples it passes, in order, either way round.
    @Test func aSegmentsStopsAreTheSamplesItPasses() throws {
        let style = try Self.style(Self.redToBlue)
        let layer = try #require((style.layers.first?.source as? MapLibreGroup)?.layers.last)
        let gradient = try #require(LineGradient(layer, .init(zoom: 2)))
        let forward = gradient.stops(from: 0.1, to: 0.12)
        #expect(forward.map(\.offset).first == 0 && forward.map(\.offset).last == 1)
        #expect(forward.count == 2 + 5, "samples 26…30 of 255 lie between: \(forward.map(\.offset))")
        #expect(forward.map(\.offset) == forward.map(\.offset).sorted())
        let backward = gradient.stops(from: 0.12, to: 0.1)
        #expect(backward.count == forward.count && backward.map(\.offset) == backward.map(\.offset).sorted())
        #expect(abs(backward[1].color.b - forward[forward.count - 2].color.b) < 1e-9)
    }
}
