/// `["image", name]`: an icon or pattern by name, marked available when the renderer has it.
final class ImageExpression: ExpressionNode {
    let type = ExpressionType.resolvedImage
    let name: ExpressionNode

    init(name: ExpressionNode) {
        self.name = name
    }

    func forEachChild(_ body: (ExpressionNode) -> Void) { body(name) }

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        guard args.count == 2 else { return ctx.error("Expected two arguments.") }
        guard let name = ctx.parse(args[1], 1, .string) else { return ctx.error("No image name provided.") }
        return ImageExpression(name: name)
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        let n = try name.evaluate(ctx).stringValue
        if n.isEmpty { return .null }
        return .image(ResolvedImage(name: n, available: ctx.availableImages?.contains(n) ?? false))
    }
}
