/// `==`, `!=`, `<`, `<=`, `>`, `>=`, optionally with a collator for strings.
final class Comparison: ExpressionNode {
    enum Operator: String {
        case eq = "==", ne = "!=", lt = "<", gt = ">", le = "<=", ge = ">="
        var isOrder: Bool { self != .eq && self != .ne }
    }

    let type = ExpressionType.boolean
    let op: Operator
    let lhs: ExpressionNode
    let rhs: ExpressionNode
    let collator: ExpressionNode?
    let hasUntypedArgument: Bool
    let key: String

    init(op: Operator, lhs: ExpressionNode, rhs: ExpressionNode, collator: ExpressionNode?, key: String) {
        self.op = op
        self.lhs = lhs
        self.rhs = rhs
        self.collator = collator
        self.key = key
        hasUntypedArgument = lhs.type == .value || rhs.type == .value
    }

    func forEachChild(_ body: (ExpressionNode) -> Void) {
        body(lhs)
        body(rhs)
        if let collator { body(collator) }
    }

    private static func isComparable(_ op: Operator, _ t: ExpressionType) -> Bool {
        switch t {
        case .string, .number, .value: return true
        case .boolean, .null: return !op.isOrder
        default: return false
        }
    }

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        guard args.count == 3 || args.count == 4 else { return ctx.error("Expected two or three arguments.") }
        let op = Operator(rawValue: args[0].string ?? "") ?? .eq
        guard var lhs = ctx.parse(args[1], 1, .value) else { return nil }
        if !isComparable(op, lhs.type) {
            return ctx.concat(1).error("\"\(op.rawValue)\" comparisons are not supported for type '\(lhs.type)'.")
        }
        guard var rhs = ctx.parse(args[2], 2, .value) else { return nil }
        if !isComparable(op, rhs.type) {
            return ctx.concat(2).error("\"\(op.rawValue)\" comparisons are not supported for type '\(rhs.type)'.")
        }
        if lhs.type.kindName != rhs.type.kindName && lhs.type != .value && rhs.type != .value {
            return ctx.error("Cannot compare types '\(lhs.type)' and '\(rhs.type)'.")
        }
        if op.isOrder {
            if lhs.type == .value && rhs.type != .value {
                lhs = Assertion(type: rhs.type, args: [lhs], key: ctx.key)
            } else if lhs.type != .value && rhs.type == .value {
                rhs = Assertion(type: lhs.type, args: [rhs], key: ctx.key)
            }
        }
        var collator: ExpressionNode?
        if args.count == 4 {
            if lhs.type != .string && rhs.type != .string && lhs.type != .value && rhs.type != .value {
                return ctx.error("Cannot use collator to compare non-string types.")
            }
            guard let c = ctx.parse(args[3], 3, .collator) else { return nil }
            collator = c
        }
        return Comparison(op: op, lhs: lhs, rhs: rhs, collator: collator, key: ctx.key)
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        let a = try lhs.evaluate(ctx)
        let b = try rhs.evaluate(ctx)
        if op.isOrder && hasUntypedArgument {
            switch (a, b) {
            case (.number, .number), (.string, .string): break
            default:
                let ta = a.type.kindName, tb = b.type.kindName
                throw ExpressionEvaluationError(
                    "Expected arguments for \"\(op.rawValue)\" to be (string, string) or (number, number), but found (\(ta), \(tb)) instead.",
                    path: key)
            }
        }
        if let collator {
            var useCollator = true
            if !op.isOrder && hasUntypedArgument {
                if a.string == nil || b.string == nil { useCollator = false }
            }
            if useCollator, case .collator(let c) = try collator.evaluate(ctx) {
                let r = c.compare(a.string ?? a.stringValue, b.string ?? b.stringValue)
                switch op {
                case .eq: return .bool(r == 0)
                case .ne: return .bool(r != 0)
                case .lt: return .bool(r < 0)
                case .gt: return .bool(r > 0)
                case .le: return .bool(r <= 0)
                case .ge: return .bool(r >= 0)
                }
            }
        }
        switch op {
        case .eq: return .bool(a.strictlyEquals(b))
        case .ne: return .bool(!a.strictlyEquals(b))
        default: break
        }
        let r: Bool
        switch (a, b) {
        case (.number(let x), .number(let y)):
            switch op {
            case .lt: r = x < y
            case .gt: r = x > y
            case .le: r = x <= y
            default: r = x >= y
            }
        case (.string(let x), .string(let y)):
            // JavaScript compares strings by UTF-16 code units.
            let c = Comparison.compareUTF16(x, y)
            switch op {
            case .lt: r = c < 0
            case .gt: r = c > 0
            case .le: r = c <= 0
            default: r = c >= 0
            }
        default:
            r = false
        }
        return .bool(r)
    }

    static func compareUTF16(_ x: String, _ y: String) -> Int {
        var i = x.utf16.makeIterator(), j = y.utf16.makeIterator()
        while true {
            switch (i.next(), j.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let p?, let q?): if p != q { return p < q ? -1 : 1 }
            }
        }
    }
}
