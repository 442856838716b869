/// Legacy (pre-expression) layer filters — `["==", "class", "x"]`, `["in", key, ...]`,
/// `["!in", ...]`, `["has", key]`, `["!has", key]`, `["all"|"any"|"none", ...]`, with the
/// `$type` and `$id` pseudo-properties — converted to expressions as MapLibre does.
public enum LegacyFilter {
    /// Whether `filter` is already an expression (else it is converted first).
    public static func isExpressionFilter(_ filter: JSONValue) -> Bool {
        classify(filter) != .legacy
    }

    private enum Classification {
        case expression, legacy, neutral
    }

    private static func classify(_ filter: JSONValue) -> Classification {
        if case .bool = filter { return .neutral }
        guard case .array(let f) = filter, let op = f.first else { return .legacy }
        let isArray: (Int) -> Bool = { i in f.count > i && f[i].array != nil }
        switch op.string {
        case "has":
            if f.count < 2 || f[1] == "$id" || f[1] == "$type" { return .legacy }
            return f.count == 2 ? .neutral : .expression
        case "in":
            return f.count >= 3 && (f[1].string == nil || isArray(2)) ? .expression : .legacy
        case "!in", "!has", "none":
            return .legacy
        case "==", "!=", ">", ">=", "<", "<=":
            return f.count != 3 || isArray(1) || isArray(2) ? .expression : .legacy
        case "any", "all":
            var sawLegacy = false
            for child in f.dropFirst() {
                switch classify(child) {
                case .expression: return .expression
                case .legacy: sawLegacy = true
                case .neutral: break
                }
            }
            return sawLegacy ? .legacy : .neutral
        default:
            return .expression
        }
    }

    /// The expression equivalent to a legacy filter (an expression filter is returned as is).
    public static func convert(_ filter: JSONValue) -> JSONValue {
        isExpressionFilter(filter) ? filter : convertLegacy(filter)
    }

    private static func convertLegacy(_ filter: JSONValue) -> JSONValue {
        guard case .array(let f) = filter, let op = f.first?.string else { return true }
        if f.count <= 1 { return .bool(op != "any") }
        let key = f[1].string ?? ""
        switch op {
        case "==", "<", ">", "<=", ">=":
            return comparison(key, f.count > 2 ? f[2] : .null, op)
        case "!=":
            return ["!", comparison(key, f.count > 2 ? f[2] : .null, "==")]
        case "any":
            return .array(["any"] + f.dropFirst().map(convertLegacy))
        case "all":
            return .array(["all"] + f.dropFirst().map(convertLegacy))
        case "none":
            return .array(["all"] + f.dropFirst().map { ["!", convertLegacy($0)] })
        case "in":
            return membership(key, Array(f.dropFirst(2)))
        case "!in":
            return ["!", membership(key, Array(f.dropFirst(2)))]
        case "has":
            return has(key)
        case "!has":
            return ["!", has(key)]
        default:
            return true
        }
    }

    private static func comparison(_ key: String, _ value: JSONValue, _ op: String) -> JSONValue {
        switch key {
        case "$type": return [.string("filter-type-" + op), value]
        case "$id": return [.string("filter-id-" + op), value]
        default: return [.string("filter-" + op), .string(key), value]
        }
    }

    private static func membership(_ key: String, _ values: [JSONValue]) -> JSONValue {
        if values.isEmpty { return false }
        switch key {
        case "$type": return ["filter-type-in", ["literal", .array(values)]]
        case "$id": return ["filter-id-in", ["literal", .array(values)]]
        default: return ["filter-in", .string(key), ["literal", .array(values)]]
        }
    }

    private static func has(_ key: String) -> JSONValue {
        switch key {
        case "$type": return true
        case "$id": return ["filter-has-id"]
        default: return ["filter-has", .string(key)]
        }
    }
}

extension StyleExpression {
    /// The specification of layer filters: boolean, per feature and zoom, not interpolated.
    public static let filterSpecification = PropertySpecification(
        type: "boolean", propertyType: "data-driven", interpolated: false, parameters: ["zoom", "feature"],
        defaultValue: false)

    /// Compiles a layer filter, legacy or expression; a null filter passes every feature.
    public static func parseFilter(_ filter: JSONValue?, rootKey: String = "filter") -> Result<StyleExpression, ExpressionParsingErrors> {
        guard let filter, filter != .null else {
            return parse(true, rootKey: rootKey, spec: filterSpecification)
        }
        if filter.nestingDepth > ParsingContext.maxDepth {
            return .failure(ExpressionParsingErrors(rootKey: rootKey, errors: [
                ExpressionParsingError(key: "", message: "Expression nested deeper than \(ParsingContext.maxDepth) levels.")]))
        }
        return parse(LegacyFilter.convert(filter), rootKey: rootKey, spec: filterSpecification, zoomOnlyInCurves: false)
    }

    /// Whether a filter passes the feature in `ctx` (false where it fails at run time).
    public func matches(_ ctx: EvaluationContext) -> Bool {
        (try? root.evaluate(ctx)) == .bool(true)
    }
}
