/// `["literal", value]`, and every constant: a value known while parsing.
public final class Literal: ExpressionNode {
    public let type: ExpressionType
    public let value: Value

    init(type: ExpressionType, value: Value) {
        self.type = type
        self.value = value
    }

    public func evaluate(_ ctx: EvaluationContext) throws -> Value { value }
    public func forEachChild(_ body: (ExpressionNode) -> Void) {}

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        guard args.count == 2 else {
            return ctx.error("'literal' expression requires exactly one argument, but found \(args.count - 1) instead.")
        }
        let value = Value(args[1])
        var type = value.type
        // An empty array takes the expected array type.
        if case .array(.value, 0) = type, case .array(_, let n)? = ctx.expectedType, n == nil || n == 0 {
            type = ctx.expectedType!
        }
        return Literal(type: type, value: value)
    }
}
