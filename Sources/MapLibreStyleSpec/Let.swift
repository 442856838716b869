/// `["let", name, value, ..., body]`: names for sub-expressions, read back with `var`.
final class Let: ExpressionNode {
    let bindings: [(String, ExpressionNode)]
    let result: ExpressionNode
    var type: ExpressionType { result.type }

    init(bindings: [(String, ExpressionNode)], result: ExpressionNode) {
        self.bindings = bindings
        self.result = result
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value { try result.evaluate(ctx) }

    func forEachChild(_ body: (ExpressionNode) -> Void) {
        for b in bindings { body(b.1) }
        body(result)
    }

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        guard args.count >= 4 else { return ctx.error("Expected at least 3 arguments, but found \(args.count - 1) instead.") }
        var bindings: [(String, ExpressionNode)] = []
        var i = 1
        while i < args.count - 1 {
            guard case .string(let name) = args[i] else {
                return ctx.error("Expected string, but found \(args[i].javaScriptTypeName) instead.", i)
            }
            if name.unicodeScalars.contains(where: { !(("0"..."9").contains($0) || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || $0 == "_") }) {
                return ctx.error("Variable names must contain only alphanumeric characters or '_'.", i)
            }
            guard let value = ctx.parse(args[i + 1], i + 1) else { return nil }
            bindings.append((name, value))
            i += 2
        }
        guard let result = ctx.parse(args[args.count - 1], args.count - 1, ctx.expectedType, bindings: bindings) else { return nil }
        return Let(bindings: bindings, result: result)
    }
}

/// `["var", name]`: the value bound by an enclosing `let`.
final class Var: ExpressionNode {
    let name: String
    let bound: ExpressionNode
    var type: ExpressionType { bound.type }

    init(name: String, bound: ExpressionNode) {
        self.name = name
        self.bound = bound
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value { try bound.evaluate(ctx) }
    func forEachChild(_ body: (ExpressionNode) -> Void) {}

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        guard args.count == 2, case .string(let name) = args[1] else {
            return ctx.error("'var' expression requires exactly one string literal argument.")
        }
        guard let bound = ctx.scope?.lookup(name) else {
            return ctx.error("Unknown variable \"\(name)\". Make sure \"\(name)\" has been bound in an enclosing \"let\" expression before using it.", 1)
        }
        return Var(name: name, bound: bound)
    }
}
