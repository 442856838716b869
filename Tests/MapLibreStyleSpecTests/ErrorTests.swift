import Testing
@testable import MapLibreStyleSpec

@Suite struct ErrorTests {
    @Test func parseErrorsNameTheKeyPath() throws {
        #expect(try parseErrors(#"["+", 1, "a"]"#, spec: numberSpec)
            == ["layers[3].paint.fill-color[2]: Expected number but found string instead."])
        #expect(try parseErrors(#"["interpolate", ["linear"], ["zoom"], 0, "red", 10, ["+", 1, 2]]"#, spec: colorSpec)
            == ["layers[3].paint.fill-color[6]: Expected color but found number instead."])
        #expect(try parseErrors(#"["interpolate", ["linear"], ["zoom"], 0, 1, 10, ["+", 1, true]]"#, spec: numberSpec)
            == ["layers[3].paint.fill-color[6][2]: Expected number but found boolean instead."])
        #expect(try parseErrors(#"["case", ["==", 1, 1], ["sqrt", "x"], 0]"#, spec: numberSpec)
            == ["layers[3].paint.fill-color[2][1]: Expected number but found string instead."])
        #expect(try parseErrors(#"["nope", 1]"#)
            == [#"layers[3].paint.fill-color[0]: Unknown expression "nope". If you wanted a literal array, use ["literal", [...]]."#])
        #expect(try parseErrors(#"["to-color", "reddish"]"#)
            == ["layers[3].paint.fill-color: Could not parse color from value 'reddish'"])
        #expect(try parseErrors(#"{"a": 1}"#) == [#"layers[3].paint.fill-color: Bare objects invalid. Use ["literal", {...}] instead."#])
        #expect(try parseErrors(#"["+", ["zoom"], 1]"#, spec: numberSpec)
            == [#"layers[3].paint.fill-color: "zoom" expression may only be used as input to a top-level "step" or "interpolate" expression."#])
        #expect(try parseErrors(#"["get", "x"]"#, spec: PropertySpecification(type: "number", propertyType: "data-constant"))
            == ["layers[3].paint.fill-color: data expressions not supported"])
        #expect(try parseErrors(#"["var", "x"]"#).count == 1)
    }

    @Test func runtimeErrorsNameTheKeyPath() throws {
        let e = try compile(#"["+", 1, ["get", "x"]]"#, spec: numberSpec)
        #expect(throws: ExpressionEvaluationError("Expected value to be of type number, but found string instead.", path: "[2]")) {
            try e.evaluate(EvaluationContext(properties: ["x": .string("a")]))
        }
        #expect(e.evaluate(EvaluationContext(properties: ["x": .string("a")]), fallback: .number(9)) == .number(9))
        let at = try compile(#"["at", ["get", "i"], ["literal", [1, 2, 3]]]"#)
        #expect(throws: ExpressionEvaluationError("Array index out of bounds: 4 > 2.", path: "")) {
            try at.evaluate(EvaluationContext(properties: ["i": .number(4)]))
        }
        #expect(throws: ExpressionEvaluationError("Array index must be an integer, but found 1.5 instead.", path: "")) {
            try at.evaluate(EvaluationContext(properties: ["i": .number(1.5)]))
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        var e: JSONValue = 1
        for _ in 0..<10_000 { e = ["-", e] }
        guard case .failure(let failure) = StyleExpression.parse(e, rootKey: "x") else {
            Issue.record("a 10,000-deep expression parsed")
            return
        }
        #expect(failure.errors.count == 1)
        #expect(failure.errors[0].message == "Expression nested deeper than 1000 levels.")
        // Just under the bound is fine.
        var shallow: JSONValue = 1
        for _ in 0..<400 { shallow = ["-", shallow] }
        #expect(try StyleExpression.parse(shallow).get().evaluate(EvaluationContext()) == .number(1))
    }

    @Test func hugeArraysAreFine() throws {
        let items = (0..<200_000).map { JSONValue.int(Int64($0)) }
        let e = try StyleExpression.parse(["length", ["literal", .array(items)]]).get()
        #expect(try e.evaluate(EvaluationContext()) == .number(200_000))
    }

    @Test func kinds() throws {
        #expect(try compile(#"["+", 1, 2]"#).kind == .constant)
        #expect(try compile(#"["get", "a"]"#).kind == .source)
        #expect(try compile(#"["interpolate", ["linear"], ["zoom"], 0, 1, 5, 2]"#).kind == .camera)
        #expect(try compile(#"["step", ["zoom"], ["get", "a"], 5, 2]"#).kind == .composite)
        #expect(try compile(#"["feature-state", "a"]"#).isStateDependent)
        // Constant sub-expressions are folded while parsing.
        #expect(try compile(#"["+", 1, 2]"#).root is Literal)
    }
}
