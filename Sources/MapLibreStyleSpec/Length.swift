/// `["length", x]`: items in an array, or code points in a string.
final class Length: ExpressionNode {
    let type = ExpressionType.number
    let input: ExpressionNode
    let key: String

    init(input: ExpressionNode, key: String) {
        self.input = input
        self.key = key
    }

    func forEachChild(_ body: (ExpressionNode) -> Void) { body(input) }

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        guard args.count == 2 else { return ctx.error("Expected 1 argument, but found \(args.count - 1) instead.") }
        guard let input = ctx.parse(args[1], 1) else { return nil }
        switch input.type {
        case .array, .string, .value: break
        default: return ctx.error("Expected argument of type string or array, but found \(input.type) instead.")
        }
        return Length(input: input, key: ctx.key)
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        switch try input.evaluate(ctx) {
        case .string(let s): return .number(Double(s.unicodeScalars.count))
        case .array(let a): return .number(Double(a.count))
        case let v:
            throw ExpressionEvaluationError("Expected value to be of type string or array, but found \(v.type) instead.", path: key)
        }
    }
}
