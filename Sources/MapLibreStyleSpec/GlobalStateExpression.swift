/// `["global-state", key]`: a value from the style's global state, null where unset.
final class GlobalStateExpression: ExpressionNode {
    let type = ExpressionType.value
    let key: String

    init(key: String) {
        self.key = key
    }

    func forEachChild(_ body: (ExpressionNode) -> Void) {}

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        guard args.count == 2 else { return ctx.error("Expected 1 argument, but found \(args.count - 1) instead.") }
        switch args[1] {
        case .null: return ctx.error("Global state property must be defined.")
        case .string(let k): return GlobalStateExpression(key: k)
        default: return ctx.error("Global state property must be string, but found \(args[1].javaScriptTypeName) instead.")
        }
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value { ctx.globalState[key] ?? .null }
}
