import Foundation
import Testing
@testable import MapLibreStyleSpec

/// Inputs the `expression` fuzz target once crashed on (Tests/Fixtures/FuzzRegressions/expression/)
/// parse and evaluate to a value or an error; malformed locales read as `en-US`.
@Suite struct RegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/FuzzRegressions/expression")

    @Test func everyFuzzRegressionEvaluatesWithoutTrapping() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).sorted()
        #expect(!names.isEmpty)
        for name in names {
            let value = try JSONValue.parse(bytes: [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name))))
            guard case .success(let expression) = StyleExpression.parse(value) else { continue }
            let context = EvaluationContext(zoom: 4.5, properties: ["name": .string("Zürich"), "pop": .number(415_367)])
            _ = try? expression.evaluate(context)
        }
    }

    @Test func malformedLocalesReadAsEnglish() throws {
        #expect(try evaluate(#"["number-format", 1234.5, {"locale": "äe"}]"#) == .string("1,234.5"))
        #expect(try evaluate(#"["number-format", 1234.5, {"locale": "de-DE"}]"#) == .string("1.234,5"))
        #expect(try evaluate(#"["==", "a", "A", ["collator", {"case-sensitive": false, "locale": "x\u0000y"}]]"#) == .bool(true))
        #expect(LocaleTag.isWellFormed("zh-Hant-TW") && LocaleTag.isWellFormed("en_US"))
        #expect(!LocaleTag.isWellFormed("äe") && !LocaleTag.isWellFormed(".e") && !LocaleTag.isWellFormed("a--b"))
    }
}
