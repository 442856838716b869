import Foundation

/// `interpolate`, `interpolate-hcl`, `interpolate-lab`: a value between the outputs of the
/// two stops around the input, by linear, exponential or cubic-bezier easing.
public final class Interpolate: ExpressionNode {
    /// How the input's position between two stops becomes the interpolation factor.
    public enum Curve: Sendable, Equatable {
        case linear
        case exponential(base: Double)
        case cubicBezier(Double, Double, Double, Double)
    }

    public let type: ExpressionType
    let space: ColorSpace
    public let curve: Curve
    let bezier: UnitBezier?
    let input: ExpressionNode
    /// The stop inputs, ascending.
    public let labels: [Double]
    let outputs: [ExpressionNode]
    let key: String

    init(type: ExpressionType, space: ColorSpace, curve: Curve, input: ExpressionNode, labels: [Double],
         outputs: [ExpressionNode], key: String) {
        self.type = type
        self.space = space
        self.curve = curve
        if case .cubicBezier(let a, let b, let c, let d) = curve { bezier = UnitBezier(a, b, c, d) } else { bezier = nil }
        self.input = input
        self.labels = labels
        self.outputs = outputs
        self.key = key
    }

    public func forEachChild(_ body: (ExpressionNode) -> Void) {
        body(input)
        outputs.forEach(body)
    }

    /// The factor in 0...1 for `input` between stops `lower` and `upper`.
    public func factor(_ input: Double, _ lower: Double, _ upper: Double) -> Double {
        switch curve {
        case .linear: return Interpolate.exponentialFactor(input, 1, lower, upper)
        case .exponential(let base): return Interpolate.exponentialFactor(input, base, lower, upper)
        case .cubicBezier: return bezier!.solve(Interpolate.exponentialFactor(input, 1, lower, upper))
        }
    }

    static func exponentialFactor(_ input: Double, _ base: Double, _ lower: Double, _ upper: Double) -> Double {
        let difference = upper - lower
        let progress = input - lower
        if difference == 0 { return 0 }
        if base == 1 { return progress / difference }
        return (pow(base, progress) - 1) / (pow(base, difference) - 1)
    }

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        let name = args[0].string ?? "interpolate"
        guard args.count > 1, case .array(let spec) = args[1], let kind = spec.first else {
            return ctx.error("Expected an interpolation type expression.", 1)
        }
        let curve: Curve
        switch kind {
        case "linear":
            curve = .linear
        case "exponential":
            guard spec.count > 1, let base = spec[1].number else {
                return ctx.error("Exponential interpolation requires a numeric base.", 1, 1)
            }
            curve = .exponential(base: base)
        case "cubic-bezier":
            let points = spec.dropFirst().compactMap(\.number)
            guard spec.count == 5, points.count == 4, points.allSatisfy({ $0 >= 0 && $0 <= 1 }) else {
                return ctx.error("Cubic bezier interpolation requires four numeric arguments with values between 0 and 1.", 1)
            }
            curve = .cubicBezier(points[0], points[1], points[2], points[3])
        default:
            let text: String
            switch kind {
            case .string(let s): text = s
            default: text = Value(kind).stringValue
            }
            return ctx.error("Unknown interpolation type \(text)", 1, 0)
        }
        if args.count - 1 < 4 { return ctx.error("Expected at least 4 arguments, but found only \(args.count - 1).") }
        if (args.count - 1) % 2 != 0 { return ctx.error("Expected an even number of arguments.") }
        guard let input = ctx.parse(args[2], 2, .number) else { return nil }
        var outputType: ExpressionType?
        let space: ColorSpace = name == "interpolate-hcl" ? .hcl : name == "interpolate-lab" ? .lab : .rgb
        if space != .rgb && ctx.expectedType != .colorArray {
            outputType = .color
        } else if let e = ctx.expectedType, e != .value {
            outputType = e
        }
        guard let stops = Stops.parse(args, from: 3, operatorName: "interpolate", firstLabelImplicit: false, ctx, outputType: &outputType) else {
            return nil
        }
        let t = outputType!
        switch t {
        case .number, .color, .padding, .numberArray, .colorArray, .projectionDefinition: break
        case .array(.number, let n) where n != nil: break
        default: return ctx.error("Type \(t) is not interpolatable.")
        }
        return Interpolate(type: t, space: space, curve: curve, input: input, labels: stops.labels, outputs: stops.outputs, key: ctx.key)
    }

    public func evaluate(_ ctx: EvaluationContext) throws -> Value {
        if labels.count == 1 { return try outputs[0].evaluate(ctx) }
        let v = try input.number(ctx)
        if v <= labels[0] { return try outputs[0].evaluate(ctx) }
        let n = labels.count
        if v >= labels[n - 1] { return try outputs[n - 1].evaluate(ctx) }
        let i = Stops.indexAtOrBelow(labels, v)
        let t = factor(v, labels[i], labels[i + 1])
        let lower = try outputs[i].evaluate(ctx)
        let upper = try outputs[i + 1].evaluate(ctx)
        return Interpolate.between(lower, upper, t, space: space)
    }

    /// `t` of the way from `a` to `b`: numbers, colors, and arrays of numbers item by item.
    static func between(_ a: Value, _ b: Value, _ t: Double, space: ColorSpace) -> Value {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return .number(lerp(x, y, t))
        case (.color(let x), .color(let y)):
            return .color(Color.interpolate(x, y, t, space: space))
        case (.array(let xs), .array(let ys)):
            return .array(zip(xs, ys).map { between($0, $1, t, space: space) })
        case (.padding(let xs), .padding(let ys)):
            return .padding(zip(xs, ys).map { lerp($0, $1, t) })
        case (.numberArray(let xs), .numberArray(let ys)):
            return .numberArray(zip(xs, ys).map { lerp($0, $1, t) })
        case (.colorArray(let xs), .colorArray(let ys)):
            return .colorArray(zip(xs, ys).map { Color.interpolate($0, $1, t, space: space) })
        case (.string(let from), .string(let to)):
            return .projection(ProjectionTransition(from: from, to: to, transition: t))
        default:
            return a
        }
    }
}
