/// What `Assertion` and `Coercion` share: a target type, the arguments tried in turn, and
/// the place reported with run-time errors. Both are also inserted by the parser where a
/// sub-expression's type must be made to fit the expected one.
class TypeAnnotation: ExpressionNode {
    let type: ExpressionType
    let args: [ExpressionNode]
    let key: String

    init(type: ExpressionType, args: [ExpressionNode], key: String) {
        self.type = type
        self.args = args
        self.key = key
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value { .null }

    func forEachChild(_ body: (ExpressionNode) -> Void) { args.forEach(body) }
}
