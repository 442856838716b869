import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

@Suite struct OverlayCommandTests {
    @Test func markersAndAGeodesicPathFitTheViewWithoutCenterOrBBox() throws {
        let folder = try TemporaryFolder()
        let run = try CLIRunner.run(["--marker", "51.5,-0.12,#dd0000,A", "--marker", "35.68,139.69,#dd0000",
                                     "--path", "51.47,-0.45;35.55,139.78;geodesic=true;color=#0000cc",
                                     "--padding", "20", "--report", "r.json", "--no-attribution", "map.png"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let image = try GoldenComparison.load(folder.url.appendingPathComponent("map.png"))
        let report = try JSONDecoder().decode(RenderReport.self, from: Data(contentsOf: folder.url.appendingPathComponent("r.json")))
        let viewport = try Viewport(center: LonLat(lon: report.center[1], lat: report.center[0]), zoom: report.zoom,
                                    width: 800, height: 600)
        for (lat, lon) in [(51.5, -0.12), (35.68, 139.69)] {
            let p = viewport.devicePoint(LonLat(lon: lon, lat: lat))
            #expect(p.x > 20 && p.x < 780 && p.y > 52 && p.y < 580, "marker at \(lat),\(lon) is in view at \(p)")
            let head = PixelMeasure.centroid(in: image, near: (p.x, p.y - 21), radius: 10, weight: PixelMeasure.red)
            #expect(head.map { abs($0.x - p.x) < 1 } == true, "pin drawn above \(lat),\(lon)")
        }
    }

    @Test(arguments: [
        (["--marker", "95,0"], "--marker '95,0': latitude 95 is outside -90…90"),
        (["--marker", "10,10", "--marker", "10,10,notacolour"], "--marker #2 '10,10,notacolour': colour 'notacolour' is not a colour"),
        (["--path", ""], "--path '': a path needs at least 2 points, got 0"),
        (["--path", "enc="], "--path 'enc=': a path needs at least 2 points, got 0"),
        (["--path", "0,0;1,1;width=5000"], "width 5000 is outside 0…100"),
        (["--marker", "0,0;icon=missing.png"], "--marker '0,0;icon=missing.png': cannot read icon"),
        (["--circle", "0,0"], "--circle '0,0': expected LAT,LON,RADIUS_M"),
        (["--overlay", "bad.geojson"], "--overlay 'bad.geojson': features[1]: stroke 'blurple' is not a colour"),
        (["--overlay", "nothing.geojson"], "--overlay 'nothing.geojson': cannot read it"),
        ([String](), "give --center LAT,LON with --zoom Z, or --bbox W,S,E,N, or overlays"),
    ])
    func badOverlaysExitTwoNamingTheArgument(arguments: [String], expected: String) throws {
        let folder = try TemporaryFolder()
        _ = try folder.write(#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]}},{"type":"Feature","properties":{"stroke":"blurple"},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}]}"#,
                             to: "bad.geojson")
        let run = try CLIRunner.run(arguments + ["map.png"], in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderr.contains(expected), "\(run.stderr)")
        #expect(try CLIRunner.contents(of: folder.url) == ["bad.geojson"], "no image written")
    }

    @Test func webpPdfAndSvgOutputsAndAWorldFile() throws {
        let folder = try TemporaryFolder()
        for name in ["m.webp", "m.pdf", "m.svg"] {
            let run = try CLIRunner.run(["--center", "50,10", "--zoom", "3", "--size", "300x200", "--marker", "50,10", name], in: folder.url)
            #expect(run.status == 0, "\(name): \(run.stderr)")
        }
        let webp = try GoldenComparison.load(folder.url.appendingPathComponent("m.webp"))
        #expect(webp.width == 300 && webp.height == 200)
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("m.pdf")).starts(with: Data("%PDF-".utf8)))
        #expect(try String(contentsOf: folder.url.appendingPathComponent("m.svg"), encoding: .utf8).contains("<svg"))
        let run = try CLIRunner.run(["--center", "50,10", "--zoom", "3", "--size", "300x200", "--world-file", "--report", "r.json",
                                     "w.png"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try String(contentsOf: folder.url.appendingPathComponent("w.pgw"), encoding: .utf8)
            .split(separator: "\n").compactMap { Double($0) }
        let report = try JSONDecoder().decode(RenderReport.self, from: Data(contentsOf: folder.url.appendingPathComponent("r.json")))
        #expect(lines.count == 6)
        #expect(abs(lines[4] - lines[0] / 2 - report.bbox3857[0]) < 1e-3 && abs(lines[5] - lines[3] / 2 - report.bbox3857[3]) < 1e-3,
                "the world file's top-left corner is the report's bbox corner")
        let png = try Data(contentsOf: folder.url.appendingPathComponent("w.png"))
        #expect(String(decoding: png.prefix(400), as: UTF8.self).contains("bbox3857\u{0}\(report.bbox3857[0])"))
        let refused = try CLIRunner.run(["--center", "50,10", "--zoom", "3", "--lossless", "x.png"], in: folder.url)
        #expect(refused.status == 2 && refused.stderr.contains("--lossless is for WebP output"))
    }

    @Test func styleOverlaysAreValidatedAndDrawn() throws {
        let folder = try TemporaryFolder()
        let white = "layers:\n  - id: white\n    source: {type: solid, color: white}\noverlays:\n"
        _ = try folder.write(white + """
          - marker: "10,10,#dd0000"
            symbol: circle
          - path: "0,0;20,20"
            width: 3
        """, to: "good.yaml")
        _ = try folder.write(white + """
          - marker: "100,10"
          - path: "0,0;20,20"
            colour: red
          - geojson: nothing.geojson
        """, to: "bad.yaml")
        let valid = try CLIRunner.run(["validate", "good.yaml"], in: folder.url)
        #expect(valid.status == 0, "\(valid.stderr)")
        let invalid = try CLIRunner.run(["validate", "bad.yaml"], in: folder.url)
        #expect(invalid.status == 2)
        #expect(invalid.stderr.contains("overlays[0].marker: latitude 100 is outside -90…90"), "\(invalid.stderr)")
        #expect(invalid.stderr.contains("overlays[1].colour: unknown key"), "\(invalid.stderr)")
        #expect(invalid.stderr.contains("overlays[2].geojson: no such file 'nothing.geojson'"), "\(invalid.stderr)")
        let render = try CLIRunner.run(["--style", "good.yaml", "--no-attribution", "--size", "200x200", "map.png"], in: folder.url)
        #expect(render.status == 0, "the view fits the style's overlays: \(render.stderr)")
        let image = try GoldenComparison.load(folder.url.appendingPathComponent("map.png"))
        #expect(RenderHelpersCLI.count(image, PixelMeasure.red) > 50 && RenderHelpersCLI.count(image, PixelMeasure.blue) > 20)
    }
}

/// Counting helper for the CLI tests.
enum RenderHelpersCLI {
    static func count(_ image: RasterImage, _ weight: PixelMeasure.Weight) -> Int {
        var n = 0
        for y in 0..<image.height { for x in 0..<image.width where weight(image.rgba(x: x, y: y)) > 0.3 { n += 1 } }
        return n
    }
}
