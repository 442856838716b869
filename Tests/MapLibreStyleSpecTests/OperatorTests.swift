import Testing
@testable import MapLibreStyleSpec

@Suite struct OperatorTests {
    @Test func featureData() throws {
        let props: [String: Value] = ["name": .string("Oslo"), "pop": .number(700_000), "tags": .array([.string("a")])]
        #expect(try evaluate(#"["get", "name"]"#, properties: props) == .string("Oslo"))
        #expect(try evaluate(#"["get", "missing"]"#, properties: props) == .null)
        #expect(try evaluate(#"["has", "pop"]"#, properties: props) == .bool(true))
        #expect(try evaluate(#"["get", "b", ["literal", {"b": 2}]]"#) == .number(2))
        #expect(try evaluate(#"["id"]"#, id: .number(7)) == .number(7))
        #expect(try evaluate(#"["geometry-type"]"#, geometryType: "LineString") == .string("LineString"))
        #expect(try evaluate(#"["feature-state", "hover"]"#) == .null)
        #expect(try evaluate(#"["interpolate", ["linear"], ["zoom"], 0, 0, 10, 10]"#, zoom: 3.5) == .number(3.5))
        #expect(try evaluate(#"["typeof", ["get", "tags"]]"#, properties: props) == .string("array<string, 1>"))
        let ctx = EvaluationContext()
        ctx.heatmapDensity = 0.25
        ctx.lineProgress = 0.75
        #expect(try compile(#"["+", ["heatmap-density"], ["line-progress"]]"#).evaluate(ctx) == .number(1))
    }

    @Test func arithmeticAndMath() throws {
        #expect(try evaluate(#"["+", 1, 2, 3]"#) == .number(6))
        #expect(try evaluate(#"["-", 5]"#) == .number(-5))
        #expect(try evaluate(#"["*", 2, ["/", 7, 2]]"#) == .number(7))
        #expect(try evaluate(#"["%", -7, 3]"#) == .number(-1))
        #expect(try evaluate(#"["^", 2, 10]"#) == .number(1024))
        #expect(try evaluate(#"["/", 1, 0]"#) == .number(.infinity))
        #expect(try evaluate(#"["/", 0, 0]"#).number?.isNaN == true)
        #expect(try evaluate(#"["round", -2.5]"#) == .number(-3))
        #expect(try evaluate(#"["round", 2.5]"#) == .number(3))
        #expect(try evaluate(#"["floor", -1.5]"#) == .number(-2))
        #expect(try evaluate(#"["ceil", 1.2]"#) == .number(2))
        #expect(try evaluate(#"["abs", -4]"#) == .number(4))
        #expect(try evaluate(#"["min", 3, 1, 2]"#) == .number(1))
        #expect(try evaluate(#"["max", 3, 1, 2]"#) == .number(3))
        #expect(close(try evaluate(#"["sqrt", 2]"#).number, 2.0.squareRoot()))
        #expect(close(try evaluate(#"["ln", ["e"]]"#).number, 1))
        #expect(close(try evaluate(#"["log10", 1000]"#).number, 3))
        #expect(close(try evaluate(#"["log2", 8]"#).number, 3))
        #expect(close(try evaluate(#"["ln2"]"#).number, 0.6931471805599453))
        #expect(close(try evaluate(#"["sin", ["/", ["pi"], 2]]"#).number, 1))
        #expect(close(try evaluate(#"["cos", 0]"#).number, 1))
        #expect(close(try evaluate(#"["tan", 0]"#).number, 0))
        #expect(close(try evaluate(#"["asin", 1]"#).number, .pi / 2))
        #expect(close(try evaluate(#"["acos", 1]"#).number, 0))
        #expect(close(try evaluate(#"["atan", 1]"#).number, .pi / 4))
    }

    @Test func decisions() throws {
        let p: [String: Value] = ["class": .string("motorway"), "n": .number(3)]
        #expect(try evaluate(#"["case", ["==", ["get", "n"], 3], "three", "other"]"#, properties: p) == .string("three"))
        #expect(try evaluate(#"["match", ["get", "class"], ["trunk", "motorway"], 1, "primary", 2, 0]"#, properties: p) == .number(1))
        #expect(try evaluate(#"["match", ["get", "n"], 1, "a", 3, "c", "z"]"#, properties: p) == .string("c"))
        #expect(try evaluate(#"["coalesce", ["get", "x"], ["get", "n"]]"#, properties: p) == .number(3))
        #expect(try evaluate(#"["all", true, ["<", ["get", "n"], 5], [">=", 3, 3]]"#, properties: p) == .bool(true))
        #expect(try evaluate(#"["any", false, ["!=", ["get", "class"], "motorway"]]"#, properties: p) == .bool(false))
        #expect(try evaluate(#"["!", ["<=", "b", "a"]]"#) == .bool(true))
        #expect(try evaluate(#"["==", ["get", "n"], "3"]"#, properties: p) == .bool(false))
        #expect(try evaluate(#"["let", "a", 2, ["*", ["var", "a"], ["var", "a"]]]"#) == .number(4))
        #expect(try evaluate(#"["==", "a", "A", ["collator", {"case-sensitive": false}]]"#) == .bool(true))
        #expect(try evaluate(#"["==", "é", "e", ["collator", {"diacritic-sensitive": false}]]"#) == .bool(true))
        #expect(try evaluate(#"["resolved-locale", ["collator", {"locale": "fr"}]]"#) == .string("fr"))
    }

    @Test func curves() throws {
        let step = #"["step", ["zoom"], "a", 5, "b", 10, "c"]"#
        #expect(try evaluate(step, zoom: 4.9) == .string("a"))
        #expect(try evaluate(step, zoom: 5) == .string("b"))
        #expect(try evaluate(step, zoom: 20) == .string("c"))
        let linear = #"["interpolate", ["linear"], ["zoom"], 0, 0, 10, 100]"#
        #expect(try evaluate(linear, zoom: 2.5) == .number(25))
        #expect(try evaluate(linear, zoom: -1) == .number(0))
        let exponential = #"["interpolate", ["exponential", 2], ["zoom"], 0, 0, 2, 30]"#
        #expect(close(try evaluate(exponential, zoom: 1).number, 10))
        let bezier = #"["interpolate", ["cubic-bezier", 0.42, 0, 0.58, 1], ["zoom"], 0, 0, 1, 1]"#
        #expect(close(try evaluate(bezier, zoom: 0.5).number, 0.5, 1e-4))
        #expect((try evaluate(bezier, zoom: 0.25).number ?? 1) < 0.25)
        let arrays = #"["interpolate", ["linear"], ["zoom"], 0, ["literal", [0, 10]], 1, ["literal", [10, 20]]]"#
        #expect(try evaluate(arrays, zoom: 0.5) == .array([.number(5), .number(15)]))
    }

    @Test func stringsAndArrays() throws {
        #expect(try evaluate(#"["concat", "a", 1, true, null, ["literal", [1, 2]]]"#) == .string("a1true[1,2]"))
        #expect(try evaluate(#"["upcase", "straße"]"#) == .string("STRASSE"))
        #expect(try evaluate(#"["downcase", "ÀB"]"#) == .string("àb"))
        #expect(try evaluate(#"["length", "a😀b"]"#) == .number(3))
        #expect(try evaluate(#"["at", 1, ["literal", ["a", "b"]]]"#) == .string("b"))
        #expect(try evaluate(#"["in", "b", ["literal", ["a", "b"]]]"#) == .bool(true))
        #expect(try evaluate(#"["in", "ell", "hello"]"#) == .bool(true))
        #expect(try evaluate(#"["index-of", "b", ["literal", ["a", "b", "b"]], 2]"#) == .number(2))
        #expect(try evaluate(#"["index-of", "c", "a😀c"]"#) == .number(2))
        #expect(try evaluate(#"["slice", ["literal", [1, 2, 3, 4]], 1, -1]"#) == .array([.number(2), .number(3)]))
        #expect(try evaluate(#"["slice", "a😀cd", 1, 3]"#) == .string("😀c"))
        #expect(try evaluate(#"["to-string", 0.1]"#) == .string("0.1"))
        #expect(try evaluate(#"["to-number", " 42 "]"#) == .number(42))
        #expect(try evaluate(#"["to-number", "x", "7"]"#) == .number(7))
        #expect(try evaluate(#"["to-boolean", ""]"#) == .bool(false))
        #expect(try evaluate(#"["to-boolean", "0"]"#) == .bool(true))
        #expect(closeColor(try evaluate(##"["to-color", "nope", "#00f"]"##), [0, 0, 1, 1]))
        #expect(closeColor(try evaluate(#"["rgb", 255, 0, 0]"#), [1, 0, 0, 1]))
        #expect(try evaluate(#"["array", "number", 2, ["literal", [1, 2]]]"#) == .array([.number(1), .number(2)]))
        #expect(try evaluate(#"["is-supported-script", "ಗೌರವಾರ್ಥ"]"#) == .bool(true))
    }

    @Test func textImageAndNumberFormat() throws {
        guard case .formatted(let f) = try evaluate(#"["format", "a", {"font-scale": 1.5}, ["image", "pin"], {}]"#) else {
            Issue.record("not formatted")
            return
        }
        #expect(f.sections.count == 2)
        #expect(f.sections[0].text == "a" && f.sections[0].scale == 1.5)
        #expect(f.sections[1].image?.name == "pin")
        let ctx = EvaluationContext()
        ctx.availableImages = ["pin"]
        #expect(try compile(#"["image", "pin"]"#).evaluate(ctx) == .image(ResolvedImage(name: "pin", available: true)))
        #expect(try evaluate(#"["number-format", 1234.5678, {"max-fraction-digits": 2}]"#) == .string("1,234.57"))
        #expect(try evaluate(#"["number-format", 3, {"min-fraction-digits": 2, "locale": "en-US"}]"#) == .string("3.00"))
    }

    @Test func withinAndDistance() throws {
        let square = #"{"type": "Polygon", "coordinates": [[[0, 0], [0, 5], [5, 5], [5, 0], [0, 0]]]}"#
        let e = try compile(#"["within", "# + square + "]")
        let ctx = EvaluationContext(geometryType: "Point")
        ctx.geometry = FeatureGeometry(kind: .point, parts: [[(2, 2)]])
        #expect(e.evaluate(ctx, fallback: .null) == .bool(true))
        ctx.geometry = FeatureGeometry(kind: .point, parts: [[(6, 2)]])
        #expect(e.evaluate(ctx, fallback: .null) == .bool(false))
        #expect(!e.isFeatureConstant)
        let d = try compile(#"["distance", {"type": "Point", "coordinates": [0, 1]}]"#)
        ctx.geometry = FeatureGeometry(kind: .point, parts: [[(0, 0)]])
        #expect(close(try d.evaluate(ctx).number, 110_574, 100))
    }
}
