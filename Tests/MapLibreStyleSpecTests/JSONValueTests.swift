import Testing
@testable import MapLibreStyleSpec

@Suite struct JSONValueTests {
    @Test func integersAndFloatsStayApart() throws {
        let v = try json(#"[1, 1.0, 1e2, -0, 9007199254740993, 12345678901234567890]"#)
        #expect(v == .array([.int(1), .double(1), .double(100), .int(0), .int(9007199254740993), .double(12345678901234567890)]))
    }

    @Test func objectsKeepWrittenOrder() throws {
        let v = try json(#"{"b": 1, "a": {"z": null, "y": [true, false]}, "c": "\u00e9\ud83d\ude00\n"}"#)
        #expect(v.object?.keys == ["b", "a", "c"])
        #expect(v["a"]?.object?.keys == ["z", "y"])
        #expect(v["c"] == .string("é😀\n"))
    }

    @Test func badJSONIsAnError() {
        for text in ["", "[1,", "{\"a\" 1}", "01", "[1 2]", "\"x", "tru", "[1] x", "{\"a\":}"] {
            #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
        }
    }

    @Test func deepNestingParsesWithoutRecursion() throws {
        let depth = 10_000
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var v = try JSONValue.parse(text)
        var levels = 0
        while case .array(let a) = v, let first = a.first { v = first; levels += 1 }
        #expect(levels == depth - 1)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text, maxDepth: 100) }
    }

    @Test func javaScriptNumberText() {
        let cases: [(Double, String)] = [(1, "1"), (1.5, "1.5"), (-0.0, "0"), (1e21, "1e+21"), (1e20, "100000000000000000000"),
                                         (1e-7, "1e-7"), (0.000001, "0.000001"), (123.456, "123.456"), (.nan, "NaN"),
                                         (-.infinity, "-Infinity"), (1.5e300, "1.5e+300")]
        for (d, s) in cases { #expect(JavaScriptNumber.string(d) == s) }
        #expect(JavaScriptNumber.parse(" 12 ") == 12)
        #expect(JavaScriptNumber.parse("") == 0)
        #expect(JavaScriptNumber.parse("0x10") == 16)
        #expect(JavaScriptNumber.parse("1e3") == 1000)
        #expect(JavaScriptNumber.parse("abc").isNaN)
        #expect(JavaScriptNumber.parse("nan").isNaN)
        #expect(JavaScriptNumber.parse("-Infinity") == -.infinity)
    }
}
