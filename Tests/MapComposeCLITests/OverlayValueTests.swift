import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// Overlay values as users write them: encoded polylines in styles, huge values quoted short,
/// points beyond the Web Mercator limit, a huge attribution.
@Suite struct OverlayValueTests {
    static let white = "layers:\n  - id: white\n    source: {type: solid, color: white}\n"

    @Test func styleOverlaysTakeEncodedPolylinesAsTheCommandLineDoes() throws {
        let folder = try TemporaryFolder()
        let line = EncodedPolyline.encode([LonLat(lon: -20, lat: 0), LonLat(lon: 20, lat: 0)])
        let area = EncodedPolyline.encode([LonLat(lon: -10, lat: 10), LonLat(lon: 10, lat: 10), LonLat(lon: 0, lat: 20)])
        try folder.write(Self.white + """
            overlays:
              - path: 'enc=\(line)'
                color: red
                width: 6
              - polygon: 'enc=\(area);fill=#0000ff'
                stroke: none
            """, to: "style.yaml")
        let valid = try CLIRunner.run(["validate", "style.yaml"], in: folder.url)
        #expect(valid.status == 0, "\(valid.stderr)")
        let run = try CLIRunner.run(["--style", "style.yaml", "--no-attribution", "--size", "200x200", "map.png"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let image = try GoldenComparison.load(folder.url.appendingPathComponent("map.png"))
        #expect(RenderHelpersCLI.count(image, PixelMeasure.red) > 100, "the encoded path is drawn")
        #expect(RenderHelpersCLI.count(image, PixelMeasure.blue) > 100, "the encoded polygon is drawn")
    }

    @Test func aHugeBadValueIsQuotedShort() throws {
        let folder = try TemporaryFolder()
        let huge = String(repeating: "x", count: 10_000_000)
        try folder.write(Self.white + "overlays:\n  - path: '\(huge)'\n", to: "style.yaml")
        let style = try CLIRunner.run(["validate", "style.yaml"], in: folder.url)
        #expect(style.status == 2)
        #expect(style.stderr.contains("'\(String(repeating: "x", count: 100))… (10000000 characters)'"), "\(style.stderr.prefix(300))")
        #expect(style.stderr.utf8.count < 1000, "\(style.stderr.utf8.count) bytes of messages")
        let option = try CLIRunner.run(["--path", String(repeating: "y", count: 100_000), "map.png"], in: folder.url)
        #expect(option.status == 2)
        #expect(option.stderr.utf8.count < 1000, "\(option.stderr.utf8.count) bytes of messages")
    }

    @Test(arguments: [("90,0", "90"), ("-89,10", "-89")])
    func aFittedPointBeyondTheMercatorLimitIsNamedSo(marker: String, latitude: String) throws {
        let folder = try TemporaryFolder()
        let run = try CLIRunner.run(["--marker", marker, "map.png"], in: folder.url)
        #expect(run.status == 2)
        #expect(run.stderr.contains("latitude \(latitude), beyond the Web Mercator limit of ±85.0511°"), "\(run.stderr)")
        #expect(!run.stderr.contains("bbox"), "the user gave no bbox: \(run.stderr)")
    }

    @Test func aHugeAttributionIsCutWithAWarning() throws {
        let folder = try TemporaryFolder()
        try folder.write("attribution: '\(String(repeating: "© someone ", count: 500))'\n" + Self.white, to: "style.yaml")
        let run = try CLIRunner.run(["--style", "style.yaml", "--center", "0,0", "--zoom", "2", "--size", "300x100",
                                     "map.png"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: the attribution is over 1000 characters long: it is drawn cut to 1000"),
                "\(run.stderr)")
    }
}
