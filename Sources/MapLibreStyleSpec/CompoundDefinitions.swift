import Foundation

/// The operators that `CompoundExpression` implements, by name.
enum CompoundDefinitions {
    typealias Evaluate = CompoundExpression.Evaluate

    private static func one(_ type: ExpressionType, _ params: [ExpressionType], _ f: @escaping Evaluate) -> CompoundExpression.Definition {
        .init(type: type, overloads: [(.fixed(params), f)])
    }

    private static func varargs(_ type: ExpressionType, _ item: ExpressionType, _ f: @escaping Evaluate) -> CompoundExpression.Definition {
        .init(type: type, overloads: [(.varargs(item), f)])
    }

    /// A number → number function.
    private static func math(_ f: @escaping (Double) -> Double) -> CompoundExpression.Definition {
        one(.number, [.number]) { ctx, a, _ in .number(f(try a[0].number(ctx))) }
    }

    private static func constant(_ d: Double) -> CompoundExpression.Definition {
        one(.number, []) { _, _, _ in .number(d) }
    }

    private static func member(_ key: String, _ object: [String: Value]) -> Value { object[key] ?? .null }

    private static func objectMember(_ key: String, _ v: Value) -> Value {
        if case .object(let o) = v { return o[key] ?? .null }
        return .null
    }

    private static func rgba(_ ctx: EvaluationContext, _ a: [ExpressionNode], _ key: String) throws -> Value {
        let r = try a[0].evaluate(ctx), g = try a[1].evaluate(ctx), b = try a[2].evaluate(ctx)
        let alpha = a.count > 3 ? try a[3].evaluate(ctx) : nil
        if let e = RGBA.validate(r, g, b, alpha) { throw ExpressionEvaluationError(e, path: key) }
        return .color(Color(r: (r.number ?? 0) / 255, g: (g.number ?? 0) / 255, b: (b.number ?? 0) / 255,
                            a: alpha?.number ?? 1, premultiplied: false))
    }

    /// JavaScript's `Math.min`/`Math.max`: NaN if any argument is.
    private static func extremum(_ ctx: EvaluationContext, _ a: [ExpressionNode], _ pick: (Double, Double) -> Bool, _ start: Double) throws -> Value {
        var r = start
        for e in a {
            let v = try e.number(ctx)
            if v.isNaN { r = .nan } else if !r.isNaN, pick(v, r) { r = v }
        }
        return .number(r)
    }

    /// `filter-<op>`: a property (or the id) compared with a literal of the same type.
    private static func legacyCompare(_ a: Value, _ b: Value, _ test: (Int) -> Bool) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): return x < y ? test(-1) : x > y ? test(1) : (x == y && test(0))
        case (.string(let x), .string(let y)):
            return test(Comparison.compareUTF16(x, y))
        case (.bool(let x), .bool(let y)): return test(x == y ? 0 : (!x ? -1 : 1))
        default: return false
        }
    }

    private static func literalValue(_ e: ExpressionNode) -> Value { (e as? Literal)?.value ?? .null }

    private static func literalString(_ e: ExpressionNode) -> String { literalValue(e).string ?? "" }

    nonisolated(unsafe) static let all: [String: CompoundExpression.Definition] = {
        var d: [String: CompoundExpression.Definition] = [
            "error": one(.error, [.string]) { ctx, a, key in throw ExpressionEvaluationError(try a[0].string(ctx), path: key) },
            "typeof": one(.string, [.value]) { ctx, a, _ in .string(try a[0].evaluate(ctx).type.description) },
            "to-rgba": one(.array(.number, length: 4), [.color]) { ctx, a, _ in
                guard let c = try a[0].evaluate(ctx).color else { return .null }
                let u = c.unpremultiplied
                return .array([.number(u.r * 255), .number(u.g * 255), .number(u.b * 255), .number(c.a)])
            },
            "rgb": one(.color, [.number, .number, .number], rgba),
            "rgba": one(.color, [.number, .number, .number, .number], rgba),
            "has": .init(type: .boolean, overloads: [
                (.fixed([.string]), { ctx, a, _ in .bool(ctx.properties[try a[0].string(ctx)] != nil) }),
                (.fixed([.string, .object]), { ctx, a, _ in
                    let k = try a[0].string(ctx)
                    if case .object(let o) = try a[1].evaluate(ctx) { return .bool(o[k] != nil) }
                    return .bool(false)
                }),
            ]),
            "get": .init(type: .value, overloads: [
                (.fixed([.string]), { ctx, a, _ in member(try a[0].string(ctx), ctx.properties) }),
                (.fixed([.string, .object]), { ctx, a, _ in objectMember(try a[0].string(ctx), try a[1].evaluate(ctx)) }),
            ]),
            "feature-state": one(.value, [.string]) { ctx, a, _ in member(try a[0].string(ctx), ctx.featureState) },
            "properties": one(.object, []) { ctx, _, _ in
                .object(ValueObject(ctx.properties.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
            },
            "geometry-type": one(.string, []) { ctx, _, _ in ctx.geometryType.map(Value.string) ?? .null },
            "id": one(.value, []) { ctx, _, _ in ctx.id },
            "zoom": one(.number, []) { ctx, _, _ in .number(ctx.zoom) },
            "heatmap-density": one(.number, []) { ctx, _, _ in .number(ctx.heatmapDensity) },
            "elevation": one(.number, []) { ctx, _, _ in .number(ctx.elevation) },
            "line-progress": one(.number, []) { ctx, _, _ in .number(ctx.lineProgress) },
            "accumulated": one(.value, []) { ctx, _, _ in ctx.accumulated },
            "+": varargs(.number, .number) { ctx, a, _ in
                var r = 0.0
                for e in a { r += try e.number(ctx) }
                return .number(r)
            },
            "*": varargs(.number, .number) { ctx, a, _ in
                var r = 1.0
                for e in a { r *= try e.number(ctx) }
                return .number(r)
            },
            "-": .init(type: .number, overloads: [
                (.fixed([.number, .number]), { ctx, a, _ in .number(try a[0].number(ctx) - a[1].number(ctx)) }),
                (.fixed([.number]), { ctx, a, _ in .number(-(try a[0].number(ctx))) }),
            ]),
            "/": one(.number, [.number, .number]) { ctx, a, _ in .number(try a[0].number(ctx) / a[1].number(ctx)) },
            "%": one(.number, [.number, .number]) { ctx, a, _ in
                .number(try a[0].number(ctx).truncatingRemainder(dividingBy: a[1].number(ctx)))
            },
            "ln2": constant(M_LN2),
            "pi": constant(Double.pi),
            "e": constant(M_E),
            "^": one(.number, [.number, .number]) { ctx, a, _ in .number(pow(try a[0].number(ctx), try a[1].number(ctx))) },
            "sqrt": math { $0.squareRoot() },
            "log10": math { log($0) / M_LN10 },
            "ln": math { log($0) },
            "log2": math { log($0) / M_LN2 },
            "sin": math(sin), "cos": math(cos), "tan": math(tan),
            "asin": math(asin), "acos": math(acos), "atan": math(atan),
            "abs": math(abs),
            "round": math { $0.rounded(.toNearestOrAwayFromZero) },
            "floor": math { $0.rounded(.down) },
            "ceil": math { $0.rounded(.up) },
            "min": varargs(.number, .number) { ctx, a, _ in try extremum(ctx, a, <, .infinity) },
            "max": varargs(.number, .number) { ctx, a, _ in try extremum(ctx, a, >, -.infinity) },
            "all": .init(type: .boolean, overloads: [
                (.fixed([.boolean, .boolean]), { ctx, a, _ in .bool(try a[0].boolean(ctx) && a[1].boolean(ctx)) }),
                (.varargs(.boolean), { ctx, a, _ in
                    for e in a where !(try e.boolean(ctx)) { return .bool(false) }
                    return .bool(true)
                }),
            ]),
            "any": .init(type: .boolean, overloads: [
                (.fixed([.boolean, .boolean]), { ctx, a, _ in .bool(try a[0].boolean(ctx) || a[1].boolean(ctx)) }),
                (.varargs(.boolean), { ctx, a, _ in
                    for e in a where try e.boolean(ctx) { return .bool(true) }
                    return .bool(false)
                }),
            ]),
            "!": one(.boolean, [.boolean]) { ctx, a, _ in .bool(!(try a[0].boolean(ctx))) },
            "is-supported-script": one(.boolean, [.string]) { _, _, _ in .bool(true) },
            "upcase": one(.string, [.string]) { ctx, a, _ in .string(try a[0].string(ctx).uppercased()) },
            "downcase": one(.string, [.string]) { ctx, a, _ in .string(try a[0].string(ctx).lowercased()) },
            "concat": varargs(.string, .value) { ctx, a, _ in
                var s = ""
                for e in a { s += try e.evaluate(ctx).stringValue }
                return .string(s)
            },
            "split": one(.array(.string, length: nil), [.string, .string]) { ctx, a, _ in
                let s = try a[0].string(ctx), sep = try a[1].string(ctx)
                if sep.isEmpty { return .array(s.unicodeScalars.map { .string(String($0)) }) }
                return .array(s.components(separatedBy: sep).map(Value.string))
            },
            "join": one(.string, [.array(.string, length: nil), .string]) { ctx, a, _ in
                guard case .array(let items) = try a[0].evaluate(ctx) else { return .string("") }
                return .string(items.map(\.stringValue).joined(separator: try a[1].string(ctx)))
            },
            "resolved-locale": one(.string, [.collator]) { ctx, a, _ in
                guard case .collator(let c) = try a[0].evaluate(ctx) else { return .string("en-US") }
                return .string(c.resolvedLocale)
            },
            // Legacy filters, converted (LegacyFilter); their arguments are literals.
            "filter-==": one(.boolean, [.string, .value]) { ctx, a, _ in
                .bool((ctx.properties[literalString(a[0])] ?? .null).strictlyEquals(literalValue(a[1])) && ctx.properties[literalString(a[0])] != nil)
            },
            "filter-id-==": one(.boolean, [.value]) { ctx, a, _ in .bool(ctx.id.strictlyEquals(literalValue(a[0]))) },
            "filter-type-==": one(.boolean, [.string]) { ctx, a, _ in .bool(ctx.geometryType == literalString(a[0])) },
            "filter-has": one(.boolean, [.value]) { ctx, a, _ in .bool(ctx.properties[literalString(a[0])] != nil) },
            "filter-has-id": one(.boolean, []) { ctx, _, _ in .bool(!ctx.id.isNull) },
            "filter-type-in": one(.boolean, [.array(.string, length: nil)]) { ctx, a, _ in
                guard case .array(let types) = literalValue(a[0]), let t = ctx.geometryType else { return .bool(false) }
                return .bool(types.contains(.string(t)))
            },
            "filter-id-in": one(.boolean, [.array(.value, length: nil)]) { ctx, a, _ in
                guard case .array(let ids) = literalValue(a[0]) else { return .bool(false) }
                return .bool(ids.contains { $0.strictlyEquals(ctx.id) })
            },
            "filter-in": one(.boolean, [.string, .array(.value, length: nil)]) { ctx, a, _ in
                guard case .array(let values) = literalValue(a[1]), let v = ctx.properties[literalString(a[0])] else { return .bool(false) }
                return .bool(values.contains { $0.strictlyEquals(v) })
            },
        ]
        let orders: [(String, (Int) -> Bool)] = [("<", { $0 < 0 }), (">", { $0 > 0 }), ("<=", { $0 <= 0 }), (">=", { $0 >= 0 })]
        for (op, test) in orders {
            d["filter-" + op] = one(.boolean, [.string, .value]) { ctx, a, _ in
                .bool(legacyCompare(ctx.properties[literalString(a[0])] ?? .null, literalValue(a[1]), test))
            }
            d["filter-id-" + op] = one(.boolean, [.value]) { ctx, a, _ in .bool(legacyCompare(ctx.id, literalValue(a[0]), test)) }
        }
        return d
    }()
}
