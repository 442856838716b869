import Foundation
import Testing
import Yams
@testable import MapComposeCore

/// Flags in styles are YAML 1.1 booleans written plain; quoted text is not a flag.
@Suite struct StyleFlagTests {
    private func flag(_ yaml: String) throws -> Bool? {
        try #require(try Yams.compose(yaml: "key: \(yaml)", .basic)?["key"]).flag
    }

    @Test func plainBooleanWordsInEveryAllowedCaseAreFlags() throws {
        for word in ["true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"] {
            #expect(try flag(word) == true, "\(word)")
        }
        for word in ["false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"] {
            #expect(try flag(word) == false, "\(word)")
        }
    }

    @Test func quotedTextMixedCaseAndOtherWordsAreNotFlags() throws {
        for yaml in ["\"true\"", "'no'", "tRue", "1", "0", "maybe", "", "[true]", "{a: true}"] {
            #expect(try flag(yaml) == nil, "\(yaml)")
        }
    }

    @Test func anExplicitBoolTagIsAFlagEvenQuoted() throws {
        #expect(try flag("!!bool \"yes\"") == true)
    }

    @Test func aStyleReadsPlainFlagsAndRefusesQuotedOnes() throws {
        let plain = try StyleLoader.load(text: "layers:\n  - {id: a, crossfade: yes, source: {type: solid}}\n", origin: .file(URL(fileURLWithPath: "/tmp/flags.yaml")))
        #expect(plain.layers.first?.spec.crossfade == true)
        #expect(throws: StyleError.self) {
            try StyleLoader.load(text: "layers:\n  - {id: a, crossfade: \"true\", source: {type: solid}}\n", origin: .file(URL(fileURLWithPath: "/tmp/flags.yaml")))
        }
    }
}
