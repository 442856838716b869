/// `["slice", input, start, end?]`: part of an array, or of a string by code points.
final class Slice: ExpressionNode {
    let type: ExpressionType
    let input: ExpressionNode
    let begin: ExpressionNode
    let end: ExpressionNode?
    let key: String

    init(type: ExpressionType, input: ExpressionNode, begin: ExpressionNode, end: ExpressionNode?, key: String) {
        self.type = type
        self.input = input
        self.begin = begin
        self.end = end
        self.key = key
    }

    func forEachChild(_ body: (ExpressionNode) -> Void) {
        body(input)
        body(begin)
        if let end { body(end) }
    }

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        if args.count <= 2 || args.count >= 5 {
            return ctx.error("Expected 2 or 3 arguments, but found \(args.count - 1) instead.")
        }
        let input = ctx.parse(args[1], 1, .value)
        let begin = ctx.parse(args[2], 2, .number)
        guard let input, let begin else { return nil }
        switch input.type {
        case .array, .string, .value: break
        default:
            return ctx.error("Expected first argument to be of type array or string, but found \(input.type) instead")
        }
        var end: ExpressionNode?
        if args.count == 4 {
            guard let e = ctx.parse(args[3], 3, .number) else { return nil }
            end = e
        }
        return Slice(type: input.type, input: input, begin: begin, end: end, key: ctx.key)
    }

    /// JavaScript's `Array.prototype.slice` bounds.
    static func bounds(count: Int, _ b: Double, _ e: Double?) -> Range<Int> {
        func clampIndex(_ x: Double) -> Int {
            if x.isNaN { return 0 }
            let t = x.rounded(.towardZero)
            if t < 0 { return max(0, count + Int(max(t, -Double(count) - 1))) }
            return Int(min(t, Double(count)))
        }
        let lo = clampIndex(b)
        let hi = e.map(clampIndex) ?? count
        return lo..<max(lo, hi)
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        let v = try input.evaluate(ctx)
        let b = try begin.number(ctx)
        let e = try end?.number(ctx)
        switch v {
        case .string(let s):
            let scalars = Array(s.unicodeScalars)
            var out = String.UnicodeScalarView()
            out.append(contentsOf: scalars[Slice.bounds(count: scalars.count, b, e)])
            return .string(String(out))
        case .array(let items):
            return .array(Array(items[Slice.bounds(count: items.count, b, e)]))
        default:
            throw ExpressionEvaluationError("Expected first argument to be of type array or string, but found \(v.type) instead.", path: key)
        }
    }
}
