/// Where parsing is in an expression: the index path (for error keys), the expected type,
/// the `let` bindings in scope and the shared list of errors.
final class ParsingContext {
    /// Deepest nesting `parse` follows before it reports an error instead.
    static let maxDepth = 1000

    final class ErrorList {
        var errors: [ExpressionParsingError] = []
    }

    /// `let` bindings visible here, innermost first.
    final class Scope {
        let parent: Scope?
        let bindings: [(String, ExpressionNode)]

        init(parent: Scope?, bindings: [(String, ExpressionNode)]) {
            self.parent = parent
            self.bindings = bindings
        }

        func lookup(_ name: String) -> ExpressionNode? {
            var s: Scope? = self
            while let cur = s {
                if let b = cur.bindings.last(where: { $0.0 == name }) { return b.1 }
                s = cur.parent
            }
            return nil
        }
    }

    let key: String
    let depth: Int
    let expectedType: ExpressionType?
    let scope: Scope?
    let errorList: ErrorList

    init(key: String = "", depth: Int = 0, expectedType: ExpressionType? = nil, scope: Scope? = nil,
         errors: ErrorList = ErrorList()) {
        self.key = key
        self.depth = depth
        self.expectedType = expectedType
        self.scope = scope
        self.errorList = errors
    }

    var errors: [ExpressionParsingError] { errorList.errors }

    /// How a value-typed result is made to fit the expected type.
    enum Annotation {
        case assert, coerce, omit
    }

    /// Parses `expr` as the argument at `index` (nil: this context's own place).
    func parse(_ expr: JSONValue, _ index: Int? = nil, _ expected: ExpressionType? = nil,
               bindings: [(String, ExpressionNode)]? = nil, annotation: Annotation? = nil) -> ExpressionNode? {
        if let index, index != 0 {
            return concat(index, expected, bindings: bindings).parseHere(expr, annotation)
        }
        // Without an index the place and expected type stay; the depth still grows.
        return ParsingContext(key: key, depth: depth + 1, expectedType: expectedType, scope: scope, errors: errorList)
            .parseHere(expr, annotation)
    }

    /// A context for the argument at `index`, expecting `expected`.
    func concat(_ index: Int?, _ expected: ExpressionType? = nil, bindings: [(String, ExpressionNode)]? = nil) -> ParsingContext {
        let newKey = index.map { key + "[\($0)]" } ?? key
        let newScope = bindings.map { Scope(parent: scope, bindings: $0) } ?? scope
        return ParsingContext(key: newKey, depth: depth + 1, expectedType: expected, scope: newScope, errors: errorList)
    }

    /// Records an error at this place, or at the argument path `indices` below it.
    @discardableResult
    func error(_ message: String, _ indices: Int...) -> ExpressionNode? {
        errorList.errors.append(ExpressionParsingError(key: key + indices.map { "[\($0)]" }.joined(), message: message))
        return nil
    }

    /// Records the subtype error, if any, and returns it.
    @discardableResult
    func checkSubtype(_ expected: ExpressionType, _ t: ExpressionType) -> String? {
        let e = expected.subtypeError(t)
        if let e { error(e) }
        return e
    }

    private func parseHere(_ expr: JSONValue, _ annotation: Annotation?) -> ExpressionNode? {
        if depth > ParsingContext.maxDepth {
            return error("Expression nested deeper than \(ParsingContext.maxDepth) levels.")
        }
        let args: [JSONValue]
        switch expr {
        case .null, .bool, .int, .double, .string:
            args = ["literal", expr]
        case .array(let a):
            args = a
        case .object:
            return error("Bare objects invalid. Use [\"literal\", {...}] instead.")
        }
        guard let op = args.first else {
            return error("Expected an array with at least one element. If you wanted a literal array, use [\"literal\", []].")
        }
        guard case .string(let name) = op else {
            return error("Expression name must be a string, but found \(op.javaScriptTypeName) instead. If you wanted a literal array, use [\"literal\", [...]].", 0)
        }
        guard let parseOperator = ExpressionRegistry.parsers[name] else {
            return error("Unknown expression \"\(name)\". If you wanted a literal array, use [\"literal\", [...]].", 0)
        }
        guard var parsed = parseOperator(args, self) else { return nil }

        if let expected = expectedType {
            let actual = parsed.type
            switch (expected, actual) {
            case (.string, .value), (.number, .value), (.boolean, .value), (.object, .value), (.array, .value):
                parsed = annotate(parsed, expected, annotation ?? .assert)
            case (.projectionDefinition, .string), (.projectionDefinition, .array), (.projectionDefinition, .value),
                 (.color, .value), (.color, .string), (.formatted, .value), (.formatted, .string),
                 (.resolvedImage, .value), (.resolvedImage, .string),
                 (.padding, .value), (.padding, .number), (.padding, .array),
                 (.numberArray, .value), (.numberArray, .number), (.numberArray, .array),
                 (.colorArray, .value), (.colorArray, .string), (.colorArray, .array),
                 (.variableAnchorOffsetCollection, .value), (.variableAnchorOffsetCollection, .array):
                parsed = annotate(parsed, expected, annotation ?? .coerce)
            default:
                if checkSubtype(expected, actual) != nil { return nil }
            }
        }

        if !(parsed is Literal), parsed.type != .resolvedImage, ConstantAnalysis.isConstant(parsed) {
            do {
                parsed = Literal(type: parsed.type, value: try parsed.evaluate(EvaluationContext()))
            } catch let e as ExpressionEvaluationError {
                return error(e.message)
            } catch {
                return self.error("\(error)")
            }
        }
        return parsed
    }

    private func annotate(_ parsed: ExpressionNode, _ type: ExpressionType, _ annotation: Annotation) -> ExpressionNode {
        switch annotation {
        case .assert: return Assertion(type: type, args: [parsed], key: key)
        case .coerce: return Coercion(type: type, args: [parsed], key: key)
        case .omit: return parsed
        }
    }
}
