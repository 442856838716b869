/// Legacy (pre-expression) property functions: `{"stops": [...], "base": …, "type":
/// "exponential"|"interval"|"categorical"|"identity", "property": …, "default": …,
/// "colorSpace": …}`, converted to the equivalent expression as MapLibre does.
public enum LegacyFunction {
    /// Whether a property value is a legacy function (a JSON object).
    public static func isFunction(_ value: JSONValue) -> Bool {
        if case .object = value { return true }
        return false
    }

    /// The expression equivalent to the function `parameters` for a property `spec`.
    public static func convert(_ parameters: JSONValue, spec: PropertySpecification) -> JSONValue {
        guard case .array(let rawStops)? = parameters["stops"] else {
            return identity(parameters, spec)
        }
        let zoomAndFeature: Bool
        if case .object? = rawStops.first?.array?.first { zoomAndFeature = true } else { zoomAndFeature = false }
        let featureDependent = zoomAndFeature || parameters["property"] != nil
        let stops: [(JSONValue, JSONValue)] = rawStops.compactMap { stop in
            guard let s = stop.array, s.count >= 2 else { return nil }
            if !featureDependent, spec.tokens, case .string(let text) = s[1] { return (s[0], tokenString(text)) }
            return (s[0], literal(s[1]))
        }
        if zoomAndFeature { return zoomAndProperty(parameters, spec, stops) }
        if !featureDependent { return zoomFunction(parameters, spec, stops) }
        return propertyFunction(parameters, spec, stops)
    }

    private static func literal(_ v: JSONValue) -> JSONValue {
        switch v {
        case .array, .object: return ["literal", v]
        default: return v
        }
    }

    private static func identity(_ parameters: JSONValue, _ spec: PropertySpecification) -> JSONValue {
        let get: JSONValue = ["get", parameters["property"] ?? .null]
        guard let def = parameters["default"] else {
            return spec.type == "string" ? ["string", get] : get
        }
        if spec.type == "enum" {
            return ["match", get, .array(spec.enumValues.map(JSONValue.string)), get, def]
        }
        var e: [JSONValue] = [.string(spec.type == "color" ? "to-color" : spec.type ?? "literal"), get, literal(def)]
        if spec.type == "array" {
            e.insert(contentsOf: [spec.value.map(JSONValue.string) ?? .null, spec.length.map { .int(Int64($0)) } ?? .null], at: 1)
        }
        return .array(e)
    }

    private static func interpolateOperator(_ parameters: JSONValue) -> JSONValue {
        switch parameters["colorSpace"]?.string {
        case "hcl": return "interpolate-hcl"
        case "lab": return "interpolate-lab"
        default: return "interpolate"
        }
    }

    private static func functionType(_ parameters: JSONValue, _ spec: PropertySpecification) -> String {
        parameters["type"]?.string ?? (spec.interpolated ? "exponential" : "interval")
    }

    private static func curve(_ parameters: JSONValue, input: JSONValue) -> [JSONValue] {
        let base = parameters["base"]?.number ?? 1
        return [interpolateOperator(parameters), base == 1 ? ["linear"] : ["exponential", parameters["base"]!], input]
    }

    /// Adds a stop, skipping a repeated input; a step's first stop supplies only its output.
    private static func appendStop(_ curve: inout [JSONValue], _ input: JSONValue, _ output: JSONValue, isStep: Bool) {
        if curve.count > 3 {
            let previous = curve[curve.count - 2]
            if let a = input.number, let b = previous.number { if a == b { return } } else if input == previous { return }
        }
        if !(isStep && curve.count == 2) { curve.append(input) }
        curve.append(output)
    }

    private static func fixDegenerateStep(_ e: inout [JSONValue]) {
        if e.first == "step", e.count == 3 {
            e.append(0)
            e.append(e[2])
        }
    }

    private static func fallback(_ parameters: JSONValue, _ spec: PropertySpecification) -> JSONValue {
        literal(parameters["default"] ?? spec.defaultValue ?? .null)
    }

    private static func guardedByNumber(_ parameters: JSONValue, _ get: JSONValue, _ e: JSONValue) -> JSONValue {
        guard let def = parameters["default"] else { return e }
        return ["case", ["==", ["typeof", get], "number"], e, literal(def)]
    }

    static func propertyFunction(_ parameters: JSONValue, _ spec: PropertySpecification, _ stops: [(JSONValue, JSONValue)]) -> JSONValue {
        let type = functionType(parameters, spec)
        let get: JSONValue = ["get", parameters["property"] ?? .null]
        switch type {
        case "categorical":
            if case .bool? = stops.first?.0 {
                var e: [JSONValue] = ["case"]
                for (input, output) in stops { e += [["==", get, input], output] }
                e.append(fallback(parameters, spec))
                return .array(e)
            }
            var e: [JSONValue] = ["match", get]
            for (input, output) in stops { appendStop(&e, input, output, isStep: false) }
            e.append(fallback(parameters, spec))
            return .array(e)
        case "interval":
            var e: [JSONValue] = ["step", ["number", get]]
            for (input, output) in stops { appendStop(&e, input, output, isStep: true) }
            fixDegenerateStep(&e)
            return guardedByNumber(parameters, get, .array(e))
        default:
            var e = curve(parameters, input: ["number", get])
            for (input, output) in stops { appendStop(&e, input, output, isStep: false) }
            return guardedByNumber(parameters, get, .array(e))
        }
    }

    static func zoomFunction(_ parameters: JSONValue, _ spec: PropertySpecification, _ stops: [(JSONValue, JSONValue)]) -> JSONValue {
        let isStep = functionType(parameters, spec) == "interval"
        var e: [JSONValue] = isStep ? ["step", ["zoom"]] : curve(parameters, input: ["zoom"])
        for (input, output) in stops { appendStop(&e, input, output, isStep: isStep) }
        fixDegenerateStep(&e)
        return .array(e)
    }

    static func zoomAndProperty(_ parameters: JSONValue, _ spec: PropertySpecification, _ stops: [(JSONValue, JSONValue)]) -> JSONValue {
        var zooms: [JSONValue] = []
        var byZoom: [[(JSONValue, JSONValue)]] = []
        for (input, output) in stops {
            let z = input["zoom"] ?? .null
            if let i = zooms.firstIndex(where: { $0.number == z.number }) {
                byZoom[i].append((input["value"] ?? .null, output))
            } else {
                zooms.append(z)
                byZoom.append([(input["value"] ?? .null, output)])
            }
        }
        // Each zoom's property function has the type, property and default, nothing else.
        var members = JSONObject()
        for k in ["type", "property", "default"] { members[k] = parameters[k] }
        let inner = JSONValue.object(members)
        let isStep = functionType(.object(JSONObject()), spec) != "exponential"
        var e: [JSONValue] = isStep ? ["step", ["zoom"]] : [interpolateOperator(parameters), ["linear"], ["zoom"]]
        for (i, z) in zooms.enumerated() {
            appendStop(&e, z, propertyFunction(inner, spec, byZoom[i]), isStep: isStep)
        }
        fixDegenerateStep(&e)
        return .array(e)
    }

    /// `"{name} text"` → `["concat", ["get", "name"], " text"]`.
    public static func tokenString(_ s: String) -> JSONValue {
        var parts: [JSONValue] = ["concat"]
        var rest = Substring(s)
        var pos = rest.startIndex
        var tail = rest
        while let open = rest[pos...].firstIndex(of: "{") {
            guard let close = rest[rest.index(after: open)...].firstIndex(where: { $0 == "}" || $0 == "{" }) else { break }
            if rest[close] == "{" { pos = close; continue }
            let name = rest[rest.index(after: open)..<close]
            if name.isEmpty { pos = rest.index(after: close); continue }
            let literalText = tail[tail.startIndex..<open]
            if !literalText.isEmpty { parts.append(.string(String(literalText))) }
            parts.append(["get", .string(String(name))])
            pos = rest.index(after: close)
            tail = rest[pos...]
        }
        rest = tail
        if parts.count == 1 { return .string(s) }
        if !rest.isEmpty {
            parts.append(.string(String(rest)))
        } else if parts.count == 2 {
            return ["to-string", parts[1]]
        }
        return .array(parts)
    }
}
