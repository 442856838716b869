/// `string`, `number`, `boolean`, `object`, `array`: the first argument of the asserted type,
/// or a run-time error. Also inserted where a value-typed expression meets an expected type.
final class Assertion: TypeAnnotation {

    override func evaluate(_ ctx: EvaluationContext) throws -> Value {
        var last: Value = .null
        for arg in args {
            last = try arg.evaluate(ctx)
            if Assertion.matches(type, last) { return last }
        }
        throw ExpressionEvaluationError(
            "Expected value to be of type \(type), but found \(last.type) instead.", path: key)
    }

    /// Whether `v` is of type `t` (a quick check for the simple types first).
    @inline(__always) static func matches(_ t: ExpressionType, _ v: Value) -> Bool {
        switch (t, v) {
        case (.number, .number), (.string, .string), (.boolean, .bool), (.object, .object): return true
        case (.number, _), (.string, _), (.boolean, _), (.object, _): return false
        default: return t.subtypeError(v.type) == nil
        }
    }

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        guard args.count >= 2 else { return ctx.error("Expected at least one argument.") }
        var i = 1
        let name = args[0].string ?? ""
        let type: ExpressionType
        if name == "array" {
            var item = ExpressionType.value
            if args.count > 2 {
                guard case .string(let t) = args[1], let it = [("string", ExpressionType.string), ("number", .number), ("boolean", .boolean)].first(where: { $0.0 == t }) else {
                    return ctx.error("The item type argument of \"array\" must be one of string, number, boolean", 1)
                }
                item = it.1
                i += 1
            }
            var n: Int?
            if args.count > 3 {
                if args[2] != .null {
                    guard let d = args[2].number, d >= 0, d == d.rounded(.down), d < Double(Int.max) else {
                        return ctx.error("The length argument to \"array\" must be a positive integer literal", 2)
                    }
                    n = Int(d)
                }
                i += 1
            }
            type = .array(item, length: n)
        } else {
            type = ["string": .string, "number": .number, "boolean": .boolean, "object": .object][name] ?? .value
        }
        var parsed: [ExpressionNode] = []
        while i < args.count {
            guard let input = ctx.parse(args[i], i, .value) else { return nil }
            parsed.append(input)
            i += 1
        }
        return Assertion(type: type, args: parsed, key: ctx.key)
    }
}
