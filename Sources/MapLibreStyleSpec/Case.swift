/// `["case", test, output, ..., fallback]`: the output of the first true test.
final class Case: ExpressionNode {
    let type: ExpressionType
    let branches: [(ExpressionNode, ExpressionNode)]
    let otherwise: ExpressionNode

    init(type: ExpressionType, branches: [(ExpressionNode, ExpressionNode)], otherwise: ExpressionNode) {
        self.type = type
        self.branches = branches
        self.otherwise = otherwise
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        for (test, output) in branches where try test.boolean(ctx) {
            return try output.evaluate(ctx)
        }
        return try otherwise.evaluate(ctx)
    }

    func forEachChild(_ body: (ExpressionNode) -> Void) {
        for (t, o) in branches {
            body(t)
            body(o)
        }
        body(otherwise)
    }

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        guard args.count >= 4 else { return ctx.error("Expected at least 3 arguments, but found only \(args.count - 1).") }
        guard args.count % 2 == 0 else { return ctx.error("Expected an odd number of arguments.") }
        var outputType: ExpressionType? = ctx.expectedType == .value ? nil : ctx.expectedType
        var branches: [(ExpressionNode, ExpressionNode)] = []
        var i = 1
        while i < args.count - 1 {
            guard let test = ctx.parse(args[i], i, .boolean) else { return nil }
            guard let result = ctx.parse(args[i + 1], i + 1, outputType) else { return nil }
            branches.append((test, result))
            outputType = outputType ?? result.type
            i += 2
        }
        guard let otherwise = ctx.parse(args[args.count - 1], args.count - 1, outputType) else { return nil }
        return Case(type: outputType ?? otherwise.type, branches: branches, otherwise: otherwise)
    }
}
