/// `["match", input, labels, output, ..., fallback]`: the output whose label equals the input.
final class Match: ExpressionNode {
    let type: ExpressionType
    let inputType: ExpressionType
    let input: ExpressionNode
    let numberCases: [Double: Int]
    let stringCases: [String: Int]
    let outputs: [ExpressionNode]
    let otherwise: ExpressionNode

    init(type: ExpressionType, inputType: ExpressionType, input: ExpressionNode, numberCases: [Double: Int],
         stringCases: [String: Int], outputs: [ExpressionNode], otherwise: ExpressionNode) {
        self.type = type
        self.inputType = inputType
        self.input = input
        self.numberCases = numberCases
        self.stringCases = stringCases
        self.outputs = outputs
        self.otherwise = otherwise
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        let v = try input.evaluate(ctx)
        var index: Int?
        switch v {
        case .number(let d) where inputType == .number: index = numberCases[d]
        case .string(let s) where inputType == .string: index = stringCases[s]
        default: break
        }
        return try (index.map { outputs[$0] } ?? otherwise).evaluate(ctx)
    }

    func forEachChild(_ body: (ExpressionNode) -> Void) {
        body(input)
        outputs.forEach(body)
        body(otherwise)
    }

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        guard args.count >= 5 else { return ctx.error("Expected at least 4 arguments, but found only \(args.count - 1).") }
        guard args.count % 2 == 1 else { return ctx.error("Expected an even number of arguments.") }
        var inputType: ExpressionType?
        var outputType: ExpressionType? = ctx.expectedType == .value ? nil : ctx.expectedType
        var numberCases: [Double: Int] = [:]
        var stringCases: [String: Int] = [:]
        var outputs: [ExpressionNode] = []
        var i = 2
        while i < args.count - 1 {
            var labels = [args[i]]
            if case .array(let a) = args[i] { labels = a }
            let labelContext = ctx.concat(i)
            if labels.isEmpty { return labelContext.error("Expected at least one branch label.") }
            for label in labels {
                let labelType: ExpressionType
                switch label {
                case .string:
                    labelType = .string
                case .int, .double:
                    let d = label.number!
                    if abs(d) > 9007199254740991 {
                        return labelContext.error("Branch labels must be integers no larger than 9007199254740991.")
                    }
                    if d != d.rounded(.down) { return labelContext.error("Numeric branch labels must be integer values.") }
                    labelType = .number
                default:
                    return labelContext.error("Branch labels must be numbers or strings.")
                }
                if let inputType {
                    if labelContext.checkSubtype(inputType, labelType) != nil { return nil }
                } else {
                    inputType = labelType
                }
                switch label {
                case .string(let s):
                    if stringCases[s] != nil { return labelContext.error("Branch labels must be unique.") }
                    stringCases[s] = outputs.count
                default:
                    if numberCases[label.number!] != nil { return labelContext.error("Branch labels must be unique.") }
                    numberCases[label.number!] = outputs.count
                }
            }
            guard let result = ctx.parse(args[i + 1], i, outputType) else { return nil }
            outputType = outputType ?? result.type
            outputs.append(result)
            i += 2
        }
        guard let input = ctx.parse(args[1], 1, .value) else { return nil }
        guard let otherwise = ctx.parse(args[args.count - 1], args.count - 1, outputType) else { return nil }
        if input.type != .value, ctx.concat(1).checkSubtype(inputType ?? .value, input.type) != nil { return nil }
        return Match(type: outputType ?? otherwise.type, inputType: inputType ?? .value, input: input,
                     numberCases: numberCases, stringCases: stringCases, outputs: outputs, otherwise: otherwise)
    }
}
