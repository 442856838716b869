// Runs maplibre-style-spec's expression conformance suite
// (test/integration/expression/tests/**/test.json) from the checkout named by the
// environment variable MAPLIBRE_STYLE_SPEC, and prints pass/fail counts by group.
// `--failures` also lists every failing case with the reason.
import Foundation
import MapLibreStyleSpec

let rootKey = "layers[0].paint.some-property"

guard let specRoot = ProcessInfo.processInfo.environment["MAPLIBRE_STYLE_SPEC"], !specRoot.isEmpty else {
    print("MAPLIBRE_STYLE_SPEC is not set: skipping the MapLibre expression conformance suite.")
    exit(0)
}
let listFailures = CommandLine.arguments.contains("--failures")
let filter = CommandLine.arguments.dropFirst().first { !$0.hasPrefix("--") }
let testsDir = URL(fileURLWithPath: specRoot).appendingPathComponent("test/integration/expression/tests")

/// Test directories (relative) holding a test.json.
func findTests() -> [String] {
    guard let e = FileManager.default.enumerator(atPath: testsDir.path) else { return [] }
    var out: [String] = []
    while let p = e.nextObject() as? String {
        if p.hasSuffix("/test.json") { out.append(String(p.dropLast("/test.json".count))) }
    }
    return out.sorted()
}

/// The harness's comparison: numbers to 6 significant figures, truncated.
func stripPrecision(_ x: Double) -> Double {
    if x == 0 || !x.isFinite { return x }
    let m = pow(10, max(0, 6 - ceil(log10(abs(x)))))
    let first = (x * m).rounded(.down) / m
    return (first * m).rounded(.down) / m
}

func deepEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.int, _), (.double, _):
        guard let x = a.number, let y = b.number else { return false }
        return stripPrecision(x) == stripPrecision(y)
    case (.array(let x), .array(let y)):
        return x.count == y.count && zip(x, y).allSatisfy(deepEqual)
    case (.object(let x), .object(let y)):
        return Set(x.keys) == Set(y.keys) && x.keys.allSatisfy { deepEqual(x[$0]!, y[$0]!) }
    default:
        return a == b
    }
}

func number(_ d: Double) -> JSONValue { d.isFinite ? .double(d) : .null }

/// A result as JSON.stringify writes MapLibre's value classes.
func json(_ v: Value) -> JSONValue { (try? JSONValue.parse(v.jsonText)) ?? .null }

func positions(_ j: JSONValue?) -> [(lon: Double, lat: Double)] {
    (j?.array ?? []).compactMap { p in
        guard let a = p.array, a.count >= 2, let x = a[0].number, let y = a[1].number else { return nil }
        return (x, y)
    }
}

/// The evaluation context for one input pair, as the upstream harness builds its feature.
func context(_ globals: JSONValue, _ feature: JSONValue, globalState: JSONValue?) -> EvaluationContext {
    let ctx = EvaluationContext(zoom: globals["zoom"]?.number ?? .nan)
    ctx.heatmapDensity = globals["heatmapDensity"]?.number ?? 0
    ctx.lineProgress = globals["lineProgress"]?.number ?? 0
    ctx.elevation = globals["elevation"]?.number ?? 0
    if let a = globals["accumulated"] { ctx.accumulated = Value(a) }
    if let images = globals["availableImages"]?.array { ctx.availableImages = Set(images.compactMap(\.string)) }
    if case .object(let o)? = globalState { ctx.globalState = o.mapValues(Value.init).dictionary }
    if case .object(let o)? = feature["properties"] { ctx.properties = o.mapValues(Value.init).dictionary }
    if case .object(let o)? = feature["featureState"] { ctx.featureState = o.mapValues(Value.init).dictionary }
    if let id = feature["id"] { ctx.id = Value(id) }
    if let g = feature["geometry"], let type = g["type"]?.string {
        ctx.geometryType = type
        if let canonical = globals["canonicalID"], let z = canonical["z"]?.number, g["coordinates"] != nil {
            let coords = g["coordinates"]
            let tileZoom = Int(z)
            switch type {
            case "Point":
                ctx.geometry = FeatureGeometry(kind: .point, parts: [positions(.array([coords ?? .null]))], tileZoom: tileZoom)
            case "MultiPoint":
                ctx.geometryType = "Point"
                ctx.geometry = FeatureGeometry(kind: .point, parts: positions(coords).map { [$0] }, tileZoom: tileZoom)
            case "LineString":
                ctx.geometry = FeatureGeometry(kind: .lineString, parts: [positions(coords)], tileZoom: tileZoom)
            case "MultiLineString":
                ctx.geometryType = "LineString"
                ctx.geometry = FeatureGeometry(kind: .lineString, parts: (coords?.array ?? []).map(positions), tileZoom: tileZoom)
            case "Polygon":
                ctx.geometry = FeatureGeometry(kind: .polygon, parts: (coords?.array ?? []).map(positions), tileZoom: tileZoom)
            case "MultiPolygon":
                ctx.geometryType = "Polygon"
                ctx.geometry = FeatureGeometry(kind: .polygon, parts: (coords?.array ?? []).flatMap { ($0.array ?? []).map(positions) }, tileZoom: tileZoom)
            default: break
            }
        }
    }
    return ctx
}

/// Runs one test; nil when it passes, else why not.
func run(_ test: JSONValue) -> String? {
    var specJSON = test["propertySpec"] ?? .object(JSONObject())
    if case .object(var o) = specJSON {
        if o["property-type"] == nil { o["property-type"] = "data-driven" }
        if o["expression"] == nil { o["expression"] = ["interpolated": true, "parameters": ["zoom", "feature"]] }
        specJSON = .object(o)
    }
    let spec = PropertySpecification(json: specJSON)
    var expression = test["expression"] ?? .null
    if LegacyFunction.isFunction(expression) { expression = LegacyFunction.convert(expression, spec: spec) }
    let expected = test["expected"] ?? .null
    let compiled: JSONValue
    var outputs: [JSONValue] = []
    switch StyleExpression.parse(expression, rootKey: rootKey, spec: spec) {
    case .failure(let e):
        compiled = ["result": "error", "errors": .array(e.errors.map { ["key": .string($0.key), "error": .string($0.message)] })]
    case .success(let style):
        compiled = ["result": "success", "isFeatureConstant": .bool(style.isFeatureConstant),
                    "isZoomConstant": .bool(style.isZoomConstant), "type": .string(style.type.description)]
        for input in test["inputs"]?.array ?? [] {
            guard let pair = input.array, pair.count == 2 else { continue }
            let ctx = context(pair[0], pair[1], globalState: test["globalState"])
            do {
                let v = try style.evaluate(ctx)
                if style.type == .color, case .color(let c) = v {
                    outputs.append([number(c.r), number(c.g), number(c.b), number(c.a)])
                } else {
                    outputs.append(json(v))
                }
            } catch let e as ExpressionEvaluationError {
                outputs.append(["error": .string("\(rootKey)\(e.path): \(e.message)")])
            } catch {
                outputs.append(["error": .string("\(error)")])
            }
        }
    }
    let expectedCompiled = expected["compiled"] ?? .null
    if !deepEqual(compiled, expectedCompiled) {
        return "compiled: expected \(Value(expectedCompiled).jsonText), got \(Value(compiled).jsonText)"
    }
    if compiled["result"] == "success" {
        let expectedOutputs = expected["outputs"] ?? .array([])
        if !deepEqual(.array(outputs), expectedOutputs) {
            return "outputs: expected \(Value(expectedOutputs).jsonText), got \(Value(.array(outputs)).jsonText)"
        }
    }
    return nil
}

var byGroup: [String: (passed: Int, total: Int)] = [:]
var failures: [(String, String)] = []
for name in findTests() where filter == nil || name.hasPrefix(filter!) {
    let group = String(name.split(separator: "/").first ?? "")
    var counts = byGroup[group] ?? (0, 0)
    counts.total += 1
    let reason: String?
    do {
        let data = try Data(contentsOf: testsDir.appendingPathComponent(name + "/test.json"))
        reason = run(try JSONValue.parse(bytes: Array(data)))
    } catch {
        reason = "unreadable: \(error)"
    }
    if let reason { failures.append((name, reason)) } else { counts.passed += 1 }
    byGroup[group] = counts
}
for (group, c) in byGroup.sorted(by: { $0.key < $1.key }) {
    print("\(group): \(c.passed)/\(c.total)")
}
let passed = byGroup.values.map(\.passed).reduce(0, +), total = byGroup.values.map(\.total).reduce(0, +)
print(String(format: "TOTAL: %d/%d passed (%.1f %%)", passed, total, total == 0 ? 0 : 100 * Double(passed) / Double(total)))
if listFailures {
    for (name, reason) in failures { print("FAIL \(name): \(reason)") }
}
