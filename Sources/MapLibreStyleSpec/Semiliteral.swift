/// `["semiliteral", [a, b, ...]]`: an array whose items are expressions, evaluated each time.
final class Semiliteral: ExpressionNode {
    let type: ExpressionType
    let items: [ExpressionNode]

    init(items: [ExpressionNode]) {
        var item: ExpressionType?
        for e in items {
            if item == nil { item = e.type } else if item != e.type { item = .value; break }
        }
        type = .array(item ?? .value, length: items.count)
        self.items = items
    }

    func forEachChild(_ body: (ExpressionNode) -> Void) { items.forEach(body) }

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        guard args.count == 2 else {
            return ctx.error("'semiliteral' expression requires exactly one argument, but found \(args.count - 1) instead.")
        }
        guard case .array(let a) = args[1] else { return Literal(type: Value(args[1]).type, value: Value(args[1])) }
        var items: [ExpressionNode] = []
        for item in a {
            guard let p = ctx.parse(item, nil, .value) else { return nil }
            items.append(p)
        }
        return Semiliteral(items: items)
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value { .array(try items.map { try $0.evaluate(ctx) }) }
}
