import Foundation
import Testing
@testable import MapComposeCore

/// MapLibre's line breaking of point labels: lines of about equal length, not each as long as
/// it may be. Cases checked against MapLibre Native's renders of the same names.
@Suite struct LabelLineBreaksTests {
    /// Every character `width` pixels wide.
    static func broken(_ text: String, maxWidth: Double, width: Double = 10) -> String? {
        LabelLineBreaks.broken(text, maxWidth: maxWidth) { _ in width }
    }

    @Test func linesAreBalancedNotFilled() {
        // 190 px in two lines: about 95 each, where filling the first would take three words.
        #expect(Self.broken("aaaa bbbb cccc dddd", maxWidth: 150) == "aaaa bbbb\ncccc dddd")
    }

    @Test func ideographsBreakAnywhere() {
        // As MapLibre Native breaks it at text-max-width 5 (20-px ideographs, 100 px).
        #expect(Self.broken("北海道札幌市中央区北一条西", maxWidth: 100, width: 20) == "北海道札幌\n市中央区\n北一条西")
        // Hangul is written with spaces: no break inside a word.
        #expect(Self.broken("서울특별시중구", maxWidth: 30, width: 20) == "서울특별시중구")
    }

    @Test func aLineDoesNotEndOnAnOpeningParenthesis() {
        #expect(Self.broken("Kensington (Royal Borough)", maxWidth: 96, width: 8) == "Kensington\n(Royal\nBorough)")
    }

    @Test func lineBreaksAreKeptAndTextThatFitsIsLeftAsItIs() {
        #expect(Self.broken("Paris\nFrance", maxWidth: 1000) == "Paris\nFrance")
        #expect(Self.broken("  Lyon  ", maxWidth: 1000) == "  Lyon  ")
        #expect(Self.broken("Saint-Étienne", maxWidth: 0) == "Saint-Étienne")
        #expect(Self.broken("Saint-Étienne", maxWidth: .nan) == "Saint-Étienne")
        #expect(Self.broken("Saint-Étienne", maxWidth: 60) == "Saint-\nÉtienne")
        #expect(Self.broken("x", maxWidth: 1) == "x")
        #expect(Self.broken("", maxWidth: 1) == "")
    }

    @Test func hostileWidthsAndLengthsAreNoTrap() {
        #expect(Self.broken("a b c", maxWidth: 1, width: .infinity) == "a b c")
        #expect(Self.broken("a b c", maxWidth: 1, width: -5) == "a b c")
        #expect(Self.broken(String(repeating: "a ", count: 600), maxWidth: 1) == nil)
        // 900 characters, 9,000 px with the spaces: 90 lines of about 100 px, which MapLibre
        // measures without their spaces (so five "ab"s to a line).
        let long = String(repeating: "ab ", count: 300)
        let lines = Self.broken(long, maxWidth: 100)?.split(separator: "\n") ?? []
        #expect(lines.count == 60 && lines.allSatisfy { $0 == "ab ab ab ab ab" }, "\(lines.count) lines: \(lines.prefix(3))")
    }
}
