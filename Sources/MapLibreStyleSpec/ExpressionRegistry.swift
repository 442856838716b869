/// Every operator name and the parser for it.
enum ExpressionRegistry {
    typealias Parser = ([JSONValue], ParsingContext) -> ExpressionNode?

    nonisolated(unsafe) static let parsers: [String: Parser] = {
        var p: [String: Parser] = [
            "==": Comparison.parse, "!=": Comparison.parse, ">": Comparison.parse, "<": Comparison.parse,
            ">=": Comparison.parse, "<=": Comparison.parse,
            "array": Assertion.parse, "boolean": Assertion.parse, "number": Assertion.parse,
            "object": Assertion.parse, "string": Assertion.parse,
            "at": At.parse, "case": Case.parse, "coalesce": Coalesce.parse, "collator": CollatorExpression.parse,
            "format": FormatExpression.parse, "image": ImageExpression.parse,
            "in": Membership.parse, "index-of": Membership.parse,
            "interpolate": Interpolate.parse, "interpolate-hcl": Interpolate.parse, "interpolate-lab": Interpolate.parse,
            "length": Length.parse, "let": Let.parse, "var": Var.parse, "literal": Literal.parse, "match": Match.parse,
            "number-format": NumberFormat.parse, "semiliteral": Semiliteral.parse, "slice": Slice.parse, "step": Step.parse,
            "to-boolean": Coercion.parse, "to-color": Coercion.parse, "to-number": Coercion.parse, "to-string": Coercion.parse,
            "within": Within.parse, "distance": Distance.parse, "global-state": GlobalStateExpression.parse,
        ]
        for name in CompoundDefinitions.all.keys { p[name] = CompoundExpression.parse }
        return p
    }()

    /// Whether `json` is an expression: an array whose first item names an operator.
    static func isExpression(_ json: JSONValue) -> Bool {
        if case .array(let a) = json, case .string(let op)? = a.first { return parsers[op] != nil }
        return false
    }
}
