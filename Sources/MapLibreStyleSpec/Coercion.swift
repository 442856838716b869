/// `to-boolean`, `to-color`, `to-number`, `to-string`: conversions, also inserted where a
/// value or string meets an expected color, formatted text or image.
final class Coercion: TypeAnnotation {

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        guard args.count >= 2 else { return ctx.error("Expected at least one argument.") }
        let name = args[0].string ?? ""
        if (name == "to-boolean" || name == "to-string") && args.count != 2 {
            return ctx.error("Expected one argument.")
        }
        let type: ExpressionType = ["to-boolean": .boolean, "to-color": .color, "to-number": .number][name] ?? .string
        var parsed: [ExpressionNode] = []
        for i in 1..<args.count {
            guard let input = ctx.parse(args[i], i, .value) else { return nil }
            parsed.append(input)
        }
        return Coercion(type: type, args: parsed, key: ctx.key)
    }

    private func describe(_ v: Value) -> String {
        if case .string(let s) = v { return s }
        return v.jsonText
    }

    override func evaluate(_ ctx: EvaluationContext) throws -> Value {
        switch type {
        case .boolean:
            return .bool(try args[0].evaluate(ctx).isTruthy)
        case .color:
            var input: Value = .null
            var failure: String?
            for arg in args {
                input = try arg.evaluate(ctx)
                failure = nil
                switch input {
                case .color:
                    return input
                case .string(let s):
                    if let c = ctx.parseColor(s) { return .color(c) }
                case .array(let items):
                    if items.count < 3 || items.count > 4 {
                        failure = "Invalid rgba value \(input.jsonText): expected an array containing either three or four numeric values."
                    } else {
                        failure = RGBA.validate(items[0], items[1], items[2], items.count == 4 ? items[3] : nil)
                    }
                    if failure == nil {
                        let n = items.map { $0.number ?? .nan }
                        return .color(Color(r: n[0] / 255, g: n[1] / 255, b: n[2] / 255, a: n.count == 4 ? n[3] : 1, premultiplied: false))
                    }
                default:
                    break
                }
            }
            throw ExpressionEvaluationError(failure ?? "Could not parse color from value '\(describe(input))'", path: key)
        case .number:
            var value: Value = .null
            for arg in args {
                value = try arg.evaluate(ctx)
                let n: Double
                switch value {
                case .null: return .number(0)
                case .number(let d): n = d
                case .bool(let b): n = b ? 1 : 0
                case .string(let s): n = JavaScriptNumber.parse(s)
                case .array: n = JavaScriptNumber.parse(value.stringValue)
                default: n = .nan
                }
                if !n.isNaN { return .number(n) }
            }
            throw ExpressionEvaluationError("Could not convert \(value.jsonText) to number.", path: key)
        case .formatted:
            let v = try args[0].evaluate(ctx)
            if case .formatted = v { return v }
            return .formatted(Formatted(text: v.stringValue))
        case .resolvedImage:
            let name = try args[0].evaluate(ctx).stringValue
            return name.isEmpty ? .null : .image(ResolvedImage(name: name, available: false))
        case .string:
            return .string(try args[0].evaluate(ctx).stringValue)
        case .projectionDefinition:
            let v = try args[0].evaluate(ctx)
            if Coercion.isProjection(v) { return v }
            throw ExpressionEvaluationError("Could not parse projectionDefinition from value '\(describe(v))'", path: key)
        default:
            var v: Value = .null
            for arg in args {
                v = try arg.evaluate(ctx)
                if let converted = Coercion.convert(v, to: type) { return converted }
            }
            throw ExpressionEvaluationError("Could not parse \(type) from value '\(describe(v))'", path: key)
        }
    }
}

extension Coercion {
    /// The anchors of `text-variable-anchor-offset`.
    static let textAnchors: Set<String> = ["center", "left", "right", "top", "bottom", "top-left", "top-right",
                                           "bottom-left", "bottom-right"]

    /// Whether `items` is a variable anchor offset collection: anchor names, each followed by
    /// its offset, an array of two numbers.
    static func isAnchorOffsetCollection(_ items: [Value]) -> Bool {
        guard !items.isEmpty, items.count % 2 == 0 else { return false }
        return stride(from: 0, to: items.count, by: 2).allSatisfy { i in
            guard let name = items[i].string, textAnchors.contains(name) else { return false }
            switch items[i + 1] {
            case .array(let offset): return offset.count == 2 && offset.allSatisfy { $0.number != nil }
            case .numberArray(let offset): return offset.count == 2
            default: return false
            }
        }
    }

    /// A projection name, a [from, to, transition] array or an interpolated transition.
    static func isProjection(_ v: Value) -> Bool {
        switch v {
        case .string, .projection: return true
        case .array(let a): return a.count == 3 && a[0].string != nil && a[1].string != nil && a[2].number != nil
        case .object(let o): return o["from"]?.string != nil && o["to"]?.string != nil && o["transition"]?.number != nil
        default: return false
        }
    }

    /// `v` as padding (1 to 4 numbers, CSS shorthand), a number array or a color array; nil
    /// where it is not one.
    static func convert(_ v: Value, to type: ExpressionType) -> Value? {
        switch (type, v) {
        case (.padding, .padding), (.numberArray, .numberArray), (.colorArray, .colorArray): return v
        case (.padding, .number(let d)): return .padding([d, d, d, d])
        case (.padding, .array(let items)):
            let n = items.compactMap(\.number)
            guard n.count == items.count, (1...4).contains(n.count) else { return nil }
            switch n.count {
            case 1: return .padding([n[0], n[0], n[0], n[0]])
            case 2: return .padding([n[0], n[1], n[0], n[1]])
            case 3: return .padding([n[0], n[1], n[2], n[1]])
            default: return .padding(n)
            }
        case (.numberArray, .number(let d)): return .numberArray([d])
        case (.numberArray, .array(let items)):
            let n = items.compactMap(\.number)
            return n.count == items.count ? .numberArray(n) : nil
        case (.colorArray, .string(let s)): return Color.parse(s).map { .colorArray([$0]) }
        case (.colorArray, .array(let items)):
            let c = items.compactMap { $0.string.flatMap(Color.parse) }
            return c.count == items.count ? .colorArray(c) : nil
        case (.variableAnchorOffsetCollection, .array(let items)):
            return isAnchorOffsetCollection(items) ? v : nil
        default: return nil
        }
    }
}

/// Checks of `rgb`/`rgba` channel values.
enum RGBA {
    /// Nil for channels in range, else the specification's message.
    static func validate(_ r: Value, _ g: Value, _ b: Value, _ a: Value?) -> String? {
        func inRange(_ v: Value) -> Bool {
            guard let d = v.number else { return false }
            return d >= 0 && d <= 255
        }
        if !(inRange(r) && inRange(g) && inRange(b)) {
            let list = ([r, g, b] + (a?.number != nil ? [a!] : [])).map(\.stringValue).joined(separator: ", ")
            return "Invalid rgba value [\(list)]: 'r', 'g', and 'b' must be between 0 and 255."
        }
        if let a, !(a.number.map { $0 >= 0 && $0 <= 1 } ?? false) {
            return "Invalid rgba value [\([r, g, b, a].map(\.stringValue).joined(separator: ", "))]: 'a' must be between 0 and 1."
        }
        return nil
    }
}
