/// `["at", index, array]`: the array's item at an integer index.
final class At: ExpressionNode {
    let type: ExpressionType
    let index: ExpressionNode
    let input: ExpressionNode
    let key: String

    init(type: ExpressionType, index: ExpressionNode, input: ExpressionNode, key: String) {
        self.type = type
        self.index = index
        self.input = input
        self.key = key
    }

    func forEachChild(_ body: (ExpressionNode) -> Void) {
        body(index)
        body(input)
    }

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        guard args.count == 3 else { return ctx.error("Expected 2 arguments, but found \(args.count - 1) instead.") }
        let index = ctx.parse(args[1], 1, .number)
        let input = ctx.parse(args[2], 2, .array(ctx.expectedType ?? .value, length: nil))
        guard let index, let input else { return nil }
        guard case .array(let item, _) = input.type else { return nil }
        return At(type: item, index: index, input: input, key: ctx.key)
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        let i = try index.number(ctx)
        guard case .array(let items) = try input.evaluate(ctx) else { return .null }
        if i < 0 {
            throw ExpressionEvaluationError("Array index out of bounds: \(JavaScriptNumber.string(i)) < 0.", path: key)
        }
        if i >= Double(items.count) {
            throw ExpressionEvaluationError("Array index out of bounds: \(JavaScriptNumber.string(i)) > \(items.count - 1).", path: key)
        }
        if i != i.rounded(.down) {
            throw ExpressionEvaluationError("Array index must be an integer, but found \(JavaScriptNumber.string(i)) instead.", path: key)
        }
        return items[Int(i)]
    }
}
