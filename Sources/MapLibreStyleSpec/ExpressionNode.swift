/// A compiled expression: parsed and type-checked once, then evaluated per feature.
public protocol ExpressionNode: AnyObject {
    /// The type the expression evaluates to.
    var type: ExpressionType { get }
    /// Evaluates the expression; throws `ExpressionEvaluationError` where the specification
    /// reports a run-time error.
    func evaluate(_ ctx: EvaluationContext) throws -> Value
    /// Calls `body` with each direct sub-expression.
    func forEachChild(_ body: (ExpressionNode) -> Void)
}

extension ExpressionNode {
    /// The result as a number (NaN where a type annotation above guarantees one anyway).
    @inline(__always) func number(_ ctx: EvaluationContext) throws -> Double {
        if case .number(let d) = try evaluate(ctx) { return d }
        return .nan
    }

    @inline(__always) func string(_ ctx: EvaluationContext) throws -> String {
        if case .string(let s) = try evaluate(ctx) { return s }
        return ""
    }

    @inline(__always) func boolean(_ ctx: EvaluationContext) throws -> Bool {
        if case .bool(let b) = try evaluate(ctx) { return b }
        return false
    }

    var children: [ExpressionNode] {
        var out: [ExpressionNode] = []
        forEachChild { out.append($0) }
        return out
    }
}

/// A run-time error: the message and the index path (`[2][1]`) of the expression that raised it.
public struct ExpressionEvaluationError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public let path: String

    public init(_ message: String, path: String) {
        self.message = message
        self.path = path
    }

    public var description: String { "\(path): \(message)" }
}

/// A parse or type error: the index path (`[2]`, empty for the root) and the message.
public struct ExpressionParsingError: Error, Equatable, CustomStringConvertible {
    public let key: String
    public let message: String

    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }

    public var description: String { key.isEmpty ? message : "\(key): \(message)" }
}

/// All errors found while parsing one expression, each with its place in the style
/// (`layers[3].paint.fill-color[2]: Expected number but found string instead.`).
public struct ExpressionParsingErrors: Error, CustomStringConvertible {
    public let rootKey: String
    public let errors: [ExpressionParsingError]

    public var description: String {
        errors.map { "\(rootKey)\($0.key): \($0.message)" }.joined(separator: "\n")
    }
}
