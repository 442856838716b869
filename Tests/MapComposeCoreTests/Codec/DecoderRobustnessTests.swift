import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Mutated and truncated tiles never crash the decoder: each is an image or a decode error.
@Suite struct DecoderRobustnessTests {
    static func seeds() throws -> [(String, Data)] {
        let gradient = try RasterImage(width: 64, height: 48)
        gradient.withMutablePixels { words, perRow in
            for y in 0..<48 { for x in 0..<64 { words[y * perRow + x] = 0xFF00_0000 | UInt32(x * 4) << 16 | UInt32(y * 5) << 8 | 0x40 } }
        }
        return [("png", try ImageEncoder.png(gradient)), ("jpeg", try ImageEncoder.jpeg(gradient, quality: 80))]
    }

    @Test(arguments: ["png", "jpeg"])
    func mutatedTilesDecodeOrFailCleanly(_ format: String) throws {
        let seed = try #require(try Self.seeds().first { $0.0 == format }?.1)
        var random = SplitMix(state: format == "png" ? 1 : 2)
        var failed = 0
        for round in 0..<400 {
            var bytes = [UInt8](seed)
            switch round % 3 {
            case 0:
                for _ in 0..<(1 + Int(random.next() % 8)) {
                    bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
                }
            case 1:
                bytes = Array(bytes.prefix(Int(random.next() % UInt64(bytes.count))))
            default:
                let at = Int(random.next() % UInt64(bytes.count))
                bytes.insert(contentsOf: (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: at)
            }
            do {
                let image = try TileDecoder.decode(Data(bytes))
                #expect(image.width <= TileDecoder.maxSide && image.height <= TileDecoder.maxSide)
            } catch {
                #expect(!error.description.isEmpty)
                failed += 1
            }
        }
        #expect(failed > 100, "mutations must mostly be caught, got \(failed) failures")
    }

    @Test func grayscaleAndOddSizedPNGsDecode() throws {
        let image = try RasterImage(width: 3, height: 700, color: RGBA(r: 9, g: 9, b: 9, a: 9))
        let back = try TileDecoder.decode(try ImageEncoder.png(image))
        #expect(back.width == 3 && back.height == 700)
    }
}

/// Random text as a style never crashes the loader: it loads or lists problems.
@Suite struct StyleRobustnessTests {
    @Test func arbitraryDocumentsLoadOrReportProblems() throws {
        let fragments = ["layers:", "  - id: a", "    source: {type: solid}", "    opacity: [1, 2]", "name: {x: 1}",
                         "background: 12", "  - &anchor {id: b, source: *anchor}", "layers: 7", "\t", "- - -", "{",
                         "    source: {type: xyz, path: \"{z}/{x}/{y}\"}", "    bounds: [1, 2]", "    z: 99999999999999999999",
                         "    minzoom: .nan", "    blend: ", "? complex key", "layers: []", "    source: !!binary aGVsbG8="]
        var random = SplitMix(state: 7)
        let folder = try TemporaryFolder()
        for round in 0..<300 {
            let lines = (0..<(1 + Int(random.next() % 8))).map { _ in fragments[Int(random.next() % UInt64(fragments.count))] }
            let file = try folder.write(lines.joined(separator: "\n"), to: "s\(round).yaml")
            do {
                _ = try StyleLoader.load(file: file)
            } catch {
                #expect(!error.problems.isEmpty)
            }
        }
    }
}
