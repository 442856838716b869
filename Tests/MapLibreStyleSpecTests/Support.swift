import MapLibreStyleSpec

/// Parses JSON text, failing the test on bad JSON.
func json(_ text: String) throws -> JSONValue { try JSONValue.parse(text) }

/// Compiles an expression for `spec` (nil: no expected type).
func compile(_ text: String, spec: PropertySpecification? = nil) throws -> StyleExpression {
    try StyleExpression.parse(try json(text), rootKey: "layers[3].paint.fill-color", spec: spec).get()
}

/// The parse errors an expression gives, as "key: message" with the root key.
func parseErrors(_ text: String, spec: PropertySpecification? = nil) throws -> [String] {
    switch StyleExpression.parse(try json(text), rootKey: "layers[3].paint.fill-color", spec: spec) {
    case .success: return []
    case .failure(let e): return e.description.split(separator: "\n").map(String.init)
    }
}

/// Evaluates an expression against a feature.
func evaluate(_ text: String, zoom: Double = 0, properties: [String: Value] = [:], id: Value = .null,
              geometryType: String? = "Point", spec: PropertySpecification? = nil) throws -> Value {
    let ctx = EvaluationContext(zoom: zoom, properties: properties, id: id, geometryType: geometryType)
    return try compile(text, spec: spec).evaluate(ctx)
}

/// Whether two numbers agree to `tolerance`.
func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-6) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance
}

/// Whether a color's premultiplied components agree with [r, g, b, a].
func closeColor(_ v: Value, _ expected: [Double], _ tolerance: Double = 1e-5) -> Bool {
    guard case .color(let c) = v else { return false }
    return zip([c.r, c.g, c.b, c.a], expected).allSatisfy { abs($0 - $1) <= tolerance }
}

let colorSpec = PropertySpecification(type: "color")
let numberSpec = PropertySpecification(type: "number")
let stringSpec = PropertySpecification(type: "string")
