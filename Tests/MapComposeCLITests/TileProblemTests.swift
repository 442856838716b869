import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// Corrupt and oversized tiles: a warning naming layer, tile and file; `--strict` fails with no image.
@Suite struct TileProblemTests {
    static let blue = RGBA(r: 0, g: 0, b: 200)

    enum BadTile: String, CaseIterable {
        case corruptPNG, corruptJPEG, oversizedPNG, oversizedJPEG

        var fileName: String { self == .corruptJPEG || self == .oversizedJPEG ? "0.jpg" : "0.png" }

        func data() throws -> Data {
            switch self {
            case .corruptPNG: return try TileFixtures.truncatedPNG()
            case .corruptJPEG: return TileFixtures.corruptJPEG()
            case .oversizedPNG: return TileFixtures.pngHeader(width: 5000, height: 5000)
            case .oversizedJPEG: return try TileFixtures.jpegClaiming(width: 8000, height: 300)
            }
        }

        var message: String {
            switch self {
            case .corruptPNG: return "corrupt PNG data: data ends early"
            case .corruptJPEG: return "corrupt JPEG data: JPEG datastream contains no image"
            case .oversizedPNG: return "tile is 5000x5000 pixels; the grid's tiles are 256x256 (up to 4x that for high-resolution tiles)"
            case .oversizedJPEG: return "tile is 8000x300 pixels; the grid's tiles are 256x256 (up to 4x that for high-resolution tiles)"
            }
        }
    }

    /// A folder with a style whose level-1 tiles are fine except 1/1/0, which is `bad`.
    func setUp(_ bad: BadTile) throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        let jpeg = bad.fileName.hasSuffix("jpg")
        let good = jpeg ? try TileFixtures.solidJPEG(Self.blue) : try TileFixtures.solidPNG(Self.blue)
        let ext = jpeg ? "jpg" : "png"
        for (x, y) in [(0, 0), (0, 1), (1, 1)] { try folder.write(good, to: "t/1/\(x)/\(y).\(ext)") }
        let badPath = "t/1/1/\(bad.fileName)"
        try folder.write(try bad.data(), to: badPath)
        try folder.write("""
            background: "#ffffff"
            layers:
              - {id: base, source: {type: xyz, path: "t/{z}/{x}/{y}.\(ext)"}}
            """, to: "style.yaml")
        return (folder, folder.url.appendingPathComponent(badPath).path)
    }

    @Test(arguments: BadTile.allCases)
    func badTileIsAWarningAndTheMapIsStillDrawn(_ bad: BadTile) throws {
        let (folder, badPath) = try setUp(bad)
        let run = try CLIRunner.run(["--style", "style.yaml", "--center", "0,0", "--zoom", "1", "--size", "512x512",
                                     "--no-attribution", "map.png"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let realPath = URL(fileURLWithPath: badPath).resolvingSymlinksInPath().path
        let lines = run.stderrLines.map { $0.replacingOccurrences(of: realPath, with: badPath) }
        #expect(lines.contains("warning: layer 'base': tile 1/1/0 (\(badPath)): \(bad.message)"), "\(run.stderr)")
        let image = try GoldenComparison.load(folder.url.appendingPathComponent("map.png"))
        let px = image.rgba(x: 100, y: 400)
        #expect(abs(Int(px.b) - 200) <= 4 && px.r <= 4 && px.g <= 4, "neighbouring tiles are drawn: \(px)")
        #expect(image.rgba(x: 400, y: 100) == RGBA.white, "the bad tile is left empty")
    }

    @Test(arguments: BadTile.allCases)
    func strictModeFailsWithExitOneAndNoImage(_ bad: BadTile) throws {
        let (folder, _) = try setUp(bad)
        let run = try CLIRunner.run(["--style", "style.yaml", "--center", "0,0", "--zoom", "1", "--strict", "map.png"],
                                    in: folder.url)
        #expect(run.status == 1)
        #expect(run.stderrLines.last == "error: --strict: 1 tile problem; no image written")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("map.png").path))
        #expect(try CLIRunner.contents(of: folder.url) == ["style.yaml", "t"], "no partial or temporary output")
    }
}
