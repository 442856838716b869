import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// `--text` in scripts beyond Latin draws their glyphs, not boxes.
@Suite struct TextOverlayCommandTests {
    static let white = "layers:\n  - id: white\n    source: {type: solid, color: white}\n"

    /// `--text` of `text` at Tokyo, 24 px, on white; the point is the centre of the 240×80 image.
    static func render(_ text: String, in folder: TemporaryFolder, name: String) throws -> RasterImage {
        let run = try CLIRunner.run(["--style", "white.yaml", "--center", "35.68,139.69", "--zoom", "6", "--size", "240x80",
                                     "--text", "35.68,139.69,\(text);size=24", "--no-attribution", name], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        return try GoldenComparison.load(folder.url.appendingPathComponent(name))
    }

    /// Pixels at least half dark (the text is #222 on white).
    static func ink(_ image: RasterImage) -> [(x: Int, y: Int)] {
        var found: [(x: Int, y: Int)] = []
        for y in 0..<image.height {
            for x in 0..<image.width where image.rgba(x: x, y: y).g < 128 { found.append((x, y)) }
        }
        return found
    }

    /// Pixels whose colours differ by more than a quarter of the range in some channel.
    static func differing(_ a: RasterImage, _ b: RasterImage) -> Int {
        var count = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.rgba(x: x, y: y), q = b.rgba(x: x, y: y)
                if max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b))) > 64 { count += 1 }
            }
        }
        return count
    }

    @Test func japaneseIsDrawnWithItsOwnGlyphs() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write(Self.white, to: "white.yaml")
        let east = try Self.render("東", in: folder, name: "east.png")
        let capital = try Self.render("京", in: folder, name: "capital.png")
        let tokyo = try Self.render("東京", in: folder, name: "tokyo.png")
        let replacement = try Self.render("\u{FFFD}\u{FFFD}", in: folder, name: "replacement.png")
        for (name, image) in [("東", east), ("京", capital), ("東京", tokyo)] {
            #expect(Self.ink(image).count > 40, "\(name) is drawn")
        }
        // A character without a glyph is drawn as the font's one box, the same for every
        // character: two different characters must give different pictures.
        #expect(Self.differing(east, capital) > 40, "東 and 京 are different glyphs, not the same box")
        #expect(Self.differing(tokyo, replacement) > 40, "東京 is not drawn as replacement boxes")
        // Centred on the point, as Latin text is.
        let xs = Self.ink(tokyo).map(\.x)
        let middle = Double(xs.min()! + xs.max()! + 1) / 2
        #expect(abs(middle - 120) < 2, "東京 is centred on its point: ink from \(xs.min()!) to \(xs.max()!)")
        #expect(xs.max()! - xs.min()! > 40, "two 24-px characters side by side")
    }
}
