import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// `ImageDiff` counts exactly what the PyPI `pixelmatch` package counts on the pairs in
/// `Tests/Fixtures/Pixelmatch/` (made, with the counts, by `scripts/fixtures/make_pixelmatch_counts.py`):
/// anti-aliased edges and text, translucent pixels, neighbours that tie, a map shifted by
/// a fraction of a pixel.
@Suite struct PixelmatchAgreementTests {
    struct Counts: Decodable {
        struct Pair: Decodable {
            struct Count: Decodable {
                let threshold: Double
                let includeAA: Bool
                let differing: Int
            }
            let name: String
            let width: Int, height: Int
            let counts: [Count]
        }
        let pixelmatch: String
        let pairs: [Pair]
    }

    static let counts: Counts = {
        let url = TestPaths.fixture("Pixelmatch/counts.json")
        // A missing or broken file fails `fixtureIsComplete` below.
        return (try? JSONDecoder().decode(Counts.self, from: Data(contentsOf: url))) ?? Counts(pixelmatch: "", pairs: [])
    }()

    static func image(_ name: String) throws -> RGBAImage {
        try StraightPNGDecoder.decode(file: TestPaths.fixture("Pixelmatch/\(name).png").path)
    }

    @Test func fixtureIsComplete() {
        #expect(Self.counts.pairs.count >= 5)
        #expect(Self.counts.pairs.allSatisfy { $0.counts.count >= 4 })
    }

    @Test(arguments: counts.pairs.map(\.name))
    func countsAgreeWithPixelmatch(_ name: String) throws {
        let pair = try #require(Self.counts.pairs.first { $0.name == name })
        let a = try Self.image("\(name)-a"), b = try Self.image("\(name)-b")
        #expect(a.width == pair.width && a.height == pair.height)
        for count in pair.counts {
            let result = try ImageDiff.compare(a, b, threshold: count.threshold, includeAntialiasing: count.includeAA)
            #expect(result.differingPixels == count.differing,
                    "\(name) at threshold \(count.threshold), includeAA \(count.includeAA): pixelmatch \(count.differing)")
        }
    }

    @Test func diffImageIsPixelmatchsOutput() throws {
        let a = try Self.image("aa-circles-a"), b = try Self.image("aa-circles-b")
        let expected = try Self.image("aa-circles-diff")
        let diff = try #require(try ImageDiff.compare(a, b, makeDiffImage: true).diffImage)
        let mismatched = zip(diff.pixels, expected.pixels).filter { $0 != $1 }.count
        #expect(mismatched == 0, "\(mismatched) pixels of the diff image differ from pixelmatch's")
    }

    @Test func translucentPixelsAreReadAsTheFileHoldsThem() throws {
        let image = try Self.image("translucent-a")
        let alphas = Set(image.pixels.map { $0 >> 24 })
        #expect(alphas.count > 100, "many alpha levels survive decoding")
    }
}
