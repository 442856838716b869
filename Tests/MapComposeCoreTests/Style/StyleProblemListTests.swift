import Foundation
import Testing
@testable import MapComposeCore

/// A style's problem list cannot be multiplied by aliases nor grow without end: a problem is
/// listed once however many aliases reach it, and at most `StyleError.listedLimit` are listed.
@Suite struct StyleProblemListTests {
    static func failure(_ text: String) -> StyleError? {
        do {
            _ = try StyleLoader.load(text: text, origin: .file(URL(fileURLWithPath: "/tmp/aliases.yaml")))
            return nil
        } catch {
            return error
        }
    }

    @Test func anAliasedMappingWithThousandsOfUnknownKeysUsedByThousandsOfLayers() throws {
        let keys = (0..<2_000).map { "k\($0): 1" }.joined(separator: ", ")
        var text = "layers:\n  - {id: l0, source: &src {type: solid, color: red, \(keys)}}\n"
        for index in 1..<3_000 { text += "  - {id: l\(index), source: *src}\n" }
        let error = try #require(Self.failure(text))
        #expect(error.problems.count == StyleError.listedLimit)
        #expect(error.unlisted == 2_000 - StyleError.listedLimit, "each unknown key once, not once per layer")
        #expect(error.problems.first?.keyPath == "layers[0].source.k0")
        #expect(error.problems.first?.line == 2)
        #expect(error.problems.first?.message.hasPrefix("unknown key (expected one of: ") == true)
        #expect(error.lines.count == StyleError.listedLimit + 1)
        #expect(error.lines.last == "and 1950 more problems (fix the first 50 and validate again)")
    }

    @Test func problemsAtDifferentPlacesAreAllCounted() throws {
        var text = "layers:\n"
        for index in 0..<120 { text += "  - {id: l\(index), source: {type: solid, bad\(index): 1}}\n" }
        let error = try #require(Self.failure(text))
        #expect(error.problems.count == StyleError.listedLimit)
        #expect(error.unlisted == 120 - StyleError.listedLimit)
        #expect(error.problems.map(\.line) == Array(2..<(2 + StyleError.listedLimit)), "in file order")
    }

    @Test func aFewProblemsAreListedWithoutASummary() throws {
        let error = try #require(Self.failure("layers:\n  - {id: a, source: {type: solid, nope: 1}}\n"))
        #expect(error.unlisted == 0)
        #expect(error.lines == error.problems.map(\.description))
    }
}
