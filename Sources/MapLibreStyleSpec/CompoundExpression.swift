/// An operator defined by a signature (or several overloads) and an evaluation function:
/// arithmetic, math, string, color, feature-data and logical operators, and the `filter-*`
/// operators legacy filters are converted to.
public final class CompoundExpression: ExpressionNode {
    typealias Evaluate = (EvaluationContext, [ExpressionNode], String) throws -> Value

    enum Signature {
        case fixed([ExpressionType])
        case varargs(ExpressionType)

        var description: String {
            switch self {
            case .fixed(let ts): return "(" + ts.map(\.description).joined(separator: ", ") + ")"
            case .varargs(let t): return "(\(t)...)"
            }
        }
    }

    struct Definition {
        let type: ExpressionType
        let overloads: [(Signature, Evaluate)]
    }

    /// The operator's name.
    public let name: String
    public let type: ExpressionType
    let args: [ExpressionNode]
    let key: String
    private let implementation: Evaluate

    init(name: String, type: ExpressionType, args: [ExpressionNode], key: String, implementation: @escaping Evaluate) {
        self.name = name
        self.type = type
        self.args = args
        self.key = key
        self.implementation = implementation
    }

    public func evaluate(_ ctx: EvaluationContext) throws -> Value { try implementation(ctx, args, key) }
    public func forEachChild(_ body: (ExpressionNode) -> Void) { args.forEach(body) }

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        let op = args[0].string ?? ""
        guard let definition = CompoundDefinitions.all[op] else {
            return ctx.error("Unknown expression \"\(op)\". If you wanted a literal array, use [\"literal\", [...]].", 0)
        }
        let overloads = definition.overloads.filter { sig, _ in
            if case .fixed(let ts) = sig { return ts.count == args.count - 1 }
            return true
        }
        var lastErrors: [ExpressionParsingError] = []
        for (signature, evaluate) in overloads {
            let signatureContext = ParsingContext(key: ctx.key, depth: ctx.depth, expectedType: nil, scope: ctx.scope)
            var parsed: [ExpressionNode] = []
            var failed = false
            for i in 1..<max(1, args.count) {
                let expected: ExpressionType
                switch signature {
                case .fixed(let ts): expected = ts[i - 1]
                case .varargs(let t): expected = t
                }
                guard let p = signatureContext.parse(args[i], 1 + parsed.count, expected) else {
                    failed = true
                    break
                }
                parsed.append(p)
            }
            if failed {
                lastErrors = signatureContext.errors
                continue
            }
            for (i, arg) in parsed.enumerated() {
                let expected: ExpressionType
                switch signature {
                case .fixed(let ts): expected = ts[i]
                case .varargs(let t): expected = t
                }
                signatureContext.concat(i + 1).checkSubtype(expected, arg.type)
            }
            if signatureContext.errors.isEmpty {
                return CompoundExpression(name: op, type: definition.type, args: parsed, key: ctx.key, implementation: evaluate)
            }
            lastErrors = signatureContext.errors
        }
        if overloads.count == 1 {
            ctx.errorList.errors.append(contentsOf: lastErrors)
        } else {
            let expected = (overloads.isEmpty ? definition.overloads : overloads).map { $0.0.description }.joined(separator: " | ")
            var actual: [String] = []
            for i in 1..<max(1, args.count) {
                guard let p = ctx.parse(args[i], 1 + actual.count) else { return nil }
                actual.append(p.type.description)
            }
            ctx.error("Expected arguments of type \(expected), but found (\(actual.joined(separator: ", "))) instead.")
        }
        return nil
    }
}
