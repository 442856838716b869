/// `["format", content, {options}, ...]`: rich text from strings and images, each section
/// with optional `font-scale`, `text-font`, `text-color` and `vertical-align`.
final class FormatExpression: ExpressionNode {
    struct Section {
        var content: ExpressionNode
        var scale: ExpressionNode?
        var font: ExpressionNode?
        var textColor: ExpressionNode?
        var verticalAlign: ExpressionNode?
    }

    let type = ExpressionType.formatted
    let sections: [Section]

    init(sections: [Section]) {
        self.sections = sections
    }

    func forEachChild(_ body: (ExpressionNode) -> Void) {
        for s in sections {
            body(s.content)
            for e in [s.scale, s.font, s.textColor, s.verticalAlign] { if let e { body(e) } }
        }
    }

    static func parse(_ args: [JSONValue], _ ctx: ParsingContext) -> ExpressionNode? {
        guard args.count >= 2 else { return ctx.error("Expected at least one argument.") }
        if case .object = args[1] { return ctx.error("First argument must be an image or text section.") }
        var sections: [Section] = []
        var nextMayBeOptions = false
        for i in 1..<args.count {
            if nextMayBeOptions, case .object(let options) = args[i] {
                nextMayBeOptions = false
                func option(_ name: String, _ type: ExpressionType) -> (ok: Bool, node: ExpressionNode?) {
                    guard let v = options[name], Value(v).isTruthy else { return (true, nil) }
                    guard let p = ctx.parse(v, 1, type) else { return (false, nil) }
                    return (true, p)
                }
                let scale = option("font-scale", .number)
                guard scale.ok else { return nil }
                let font = option("text-font", .array(.string, length: nil))
                guard font.ok else { return nil }
                let color = option("text-color", .color)
                guard color.ok else { return nil }
                if case .string(let align)? = options["vertical-align"], !["bottom", "center", "top"].contains(align) {
                    return ctx.error("'vertical-align' must be one of: 'bottom', 'center', 'top' but found '\(align)' instead.")
                }
                let align = option("vertical-align", .string)
                guard align.ok else { return nil }
                sections[sections.count - 1].scale = scale.node
                sections[sections.count - 1].font = font.node
                sections[sections.count - 1].textColor = color.node
                sections[sections.count - 1].verticalAlign = align.node
            } else {
                guard let content = ctx.parse(args[i], 1, .value) else { return nil }
                switch content.type {
                case .string, .value, .null, .resolvedImage: break
                default: return ctx.error("Formatted text type must be 'string', 'value', 'image' or 'null'.")
                }
                nextMayBeOptions = true
                sections.append(Section(content: content))
            }
        }
        return FormatExpression(sections: sections)
    }

    func evaluate(_ ctx: EvaluationContext) throws -> Value {
        var out: [FormattedSection] = []
        for s in sections {
            let content = try s.content.evaluate(ctx)
            let align = try s.verticalAlign?.evaluate(ctx).string
            if case .image(let img) = content {
                out.append(FormattedSection(text: "", image: img, verticalAlign: align))
                continue
            }
            var font: String?
            if let f = s.font, case .array(let names) = try f.evaluate(ctx) {
                font = names.map(\.stringValue).joined(separator: ",")
            }
            out.append(FormattedSection(text: content.stringValue, image: nil, scale: try s.scale?.evaluate(ctx).number,
                                        fontStack: font, textColor: try s.textColor?.evaluate(ctx).color, verticalAlign: align))
        }
        return .formatted(Formatted(sections: out))
    }
}
