/// `["coalesce", a, b, ...]`: the first argument that is not null (nor an unavailable image).
final class Coalesce: ExpressionNode {
    let type: ExpressionType
    let args: [ExpressionNode]

    init(type: ExpressionType, args: [ExpressionNode]) {
        self.type = type
        self.args = args
    }

    func forEachChild(_ body: (ExpressionNode) -> Void) { args.forEach(body) }

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        guard args.count >= 2 else { return ctx.error("Expected at least one argument.") }
        let expected = ctx.expectedType
        var outputType: ExpressionType? = expected == .value ? nil : expected
        var parsed: [ExpressionNode] = []
        for i in 1..<args.count {
            guard let p = ctx.parse(args[i], i, outputType, annotation: .omit) else { return nil }
            outputType = outputType ?? p.type
            parsed.append(p)
        }
        let needsAnnotation = expected.map { e in parsed.contains { e.subtypeError($0.type) != nil } } ?? false
        return Coalesce(type: needsAnnotation ? .value : outputType!, args: parsed)
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        var requestedImage: Value?
        for (n, arg) in args.enumerated() {
            var result = try arg.evaluate(ctx)
            if case .image(let img) = result, !img.available {
                if requestedImage == nil { requestedImage = .string(img.name) }
                result = .null
                if n == args.count - 1 { result = requestedImage! }
            }
            if !result.isNull { return result }
        }
        return .null
    }
}
