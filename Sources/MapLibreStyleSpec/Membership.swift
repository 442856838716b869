/// `in` and `index-of`: whether, and where, a value occurs in an array or a string.
final class Membership: ExpressionNode {
    let type: ExpressionType
    let needle: ExpressionNode
    let haystack: ExpressionNode
    let fromIndex: ExpressionNode?
    let key: String

    init(type: ExpressionType, needle: ExpressionNode, haystack: ExpressionNode, fromIndex: ExpressionNode?, key: String) {
        self.type = type
        self.needle = needle
        self.haystack = haystack
        self.fromIndex = fromIndex
        self.key = key
    }

    func forEachChild(_ body: (ExpressionNode) -> Void) {
        body(needle)
        body(haystack)
        if let fromIndex { body(fromIndex) }
    }

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        let isIndexOf = args[0] == "index-of"
        if isIndexOf {
            if args.count <= 2 || args.count >= 5 {
                return ctx.error("Expected 2 or 3 arguments, but found \(args.count - 1) instead.")
            }
        } else if args.count != 3 {
            return ctx.error("Expected 2 arguments, but found \(args.count - 1) instead.")
        }
        let needle = ctx.parse(args[1], 1, .value)
        let haystack = ctx.parse(args[2], 2, .value)
        guard let needle, let haystack else { return nil }
        switch needle.type {
        case .boolean, .string, .number, .null, .value: break
        default:
            return ctx.error("Expected first argument to be of type boolean, string, number or null, but found \(needle.type) instead")
        }
        var from: ExpressionNode?
        if args.count == 4 {
            guard let f = ctx.parse(args[3], 3, .number) else { return nil }
            from = f
        }
        return Membership(type: isIndexOf ? .number : .boolean, needle: needle, haystack: haystack, fromIndex: from, key: ctx.key)
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        let n = try needle.evaluate(ctx)
        let h = try haystack.evaluate(ctx)
        let isIn = type == .boolean
        if isIn, !h.isTruthy { return .bool(false) }
        switch n {
        case .bool, .string, .number, .null: break
        default:
            throw ExpressionEvaluationError("Expected first argument to be of type boolean, string, number or null, but found \(n.type) instead.", path: key)
        }
        var start = 0
        if let fromIndex {
            let f = try fromIndex.number(ctx)
            if f.isFinite { start = Int(f.rounded(.towardZero)) } else if f == .infinity { start = Int.max / 2 }
        }
        switch h {
        case .string(let s):
            // JavaScript's String.indexOf works on UTF-16 units; the result counts code points.
            let needleText = n.isNull ? "null" : n.stringValue
            let units = Array(s.utf16)
            let pattern = Array(needleText.utf16)
            let from = isIn ? 0 : min(max(0, start), units.count)
            var found = -1
            if pattern.count <= units.count {
                var i = from
                while i + pattern.count <= units.count {
                    if units[i..<(i + pattern.count)].elementsEqual(pattern) { found = i; break }
                    i += 1
                }
            }
            if isIn { return .bool(found >= 0) }
            if found < 0 { return .number(-1) }
            return .number(Double(String(decoding: units[0..<found], as: UTF16.self).unicodeScalars.count))
        case .array(let items):
            var from = start < 0 ? max(0, items.count + start) : start
            if isIn { from = 0 }
            if from < items.count {
                for i in from..<items.count where items[i].strictlyEquals(n) {
                    return isIn ? .bool(true) : .number(Double(i))
                }
            }
            return isIn ? .bool(false) : .number(-1)
        default:
            throw ExpressionEvaluationError("Expected second argument to be of type array or string, but found \(h.type) instead.", path: key)
        }
    }
}
