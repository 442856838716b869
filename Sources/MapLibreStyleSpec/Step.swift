/// `["step", input, output0, stop1, output1, ...]`: the output of the last stop at or below the input.
final class Step: ExpressionNode {
    let type: ExpressionType
    let input: ExpressionNode
    let labels: [Double]
    let outputs: [ExpressionNode]

    init(type: ExpressionType, input: ExpressionNode, labels: [Double], outputs: [ExpressionNode]) {
        self.type = type
        self.input = input
        self.labels = labels
        self.outputs = outputs
    }

    func forEachChild(_ body: (ExpressionNode) -> Void) {
        body(input)
        outputs.forEach(body)
    }

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        if args.count - 1 < 4 { return ctx.error("Expected at least 4 arguments, but found only \(args.count - 1).") }
        if (args.count - 1) % 2 != 0 { return ctx.error("Expected an even number of arguments.") }
        guard let input = ctx.parse(args[1], 1, .number) else { return nil }
        var outputType: ExpressionType? = ctx.expectedType == .value ? nil : ctx.expectedType
        guard let stops = Stops.parse(args, from: 1, operatorName: "step", firstLabelImplicit: true, ctx, outputType: &outputType) else {
            return nil
        }
        return Step(type: outputType!, input: input, labels: stops.labels, outputs: stops.outputs)
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        if labels.count == 1 { return try outputs[0].evaluate(ctx) }
        let v = try input.number(ctx)
        if v <= labels[0] { return try outputs[0].evaluate(ctx) }
        if v >= labels[labels.count - 1] { return try outputs[labels.count - 1].evaluate(ctx) }
        return try outputs[Stops.indexAtOrBelow(labels, v)].evaluate(ctx)
    }
}
