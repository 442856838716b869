/// Stop lookup shared by `step` and `interpolate`.
enum Stops {
    /// Index of the last label ≤ `input`; labels ascend strictly and input lies within them.
    static func indexAtOrBelow(_ labels: [Double], _ input: Double) -> Int {
        var lo = 0, hi = labels.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if labels[mid] <= input {
                if mid == labels.count - 1 || input < labels[mid + 1] { return mid }
                lo = mid + 1
            } else if labels[mid] > input {
                hi = mid - 1
            } else {
                return 0
            }
        }
        return 0
    }

    /// Parses the literal input labels and the outputs of `step` (from `first`) and
    /// `interpolate`, checking they are numbers in strictly ascending order.
    static func parse(_ args: [JSONValue], from first: Int, operatorName: String, firstLabelImplicit: Bool,
                      _ ctx: ParsingContext, outputType: inout ExpressionType?) -> (labels: [Double], outputs: [ExpressionNode])? {
        var labels: [Double] = []
        var outputs: [ExpressionNode] = []
        var i = first
        while i < args.count {
            let label: Double
            if firstLabelImplicit && i == first {
                label = -.infinity
            } else {
                guard let l = args[i].number else {
                    ctx.error("Input/output pairs for \"\(operatorName)\" expressions must be defined using literal numeric values (not computed expressions) for the input values.", i)
                    return nil
                }
                label = l
            }
            if let last = labels.last, last >= label {
                ctx.error("Input/output pairs for \"\(operatorName)\" expressions must be arranged with input values in strictly ascending order.", i)
                return nil
            }
            guard let parsed = ctx.parse(args[i + 1], i + 1, outputType) else { return nil }
            outputType = outputType ?? parsed.type
            labels.append(label)
            outputs.append(parsed)
            i += 2
        }
        return (labels, outputs)
    }
}
