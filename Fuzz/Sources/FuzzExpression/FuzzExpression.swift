import Foundation
import FuzzSupport
import MapLibreStyleSpec

/// The feature contexts every parsed expression is evaluated in: camera only, a point with
/// properties of each kind, a line and a polygon at fractional zooms (made anew per input, as
/// evaluation may write to a context).
func contexts() -> [EvaluationContext] { [
    EvaluationContext(zoom: 0),
    EvaluationContext(zoom: 4.5, properties: ["name": .string("Zürich"), "class": .string("city"), "rank": .number(3),
                                              "pop": .number(415_367), "capital": .bool(true)],
                      id: .number(7), geometryType: "Point"),
    EvaluationContext(zoom: 12.25, properties: ["class": .string("motorway"), "ref": .string("A1"), "oneway": .number(1),
                                                "brunnel": .null], id: .string("w1"), geometryType: "LineString"),
    EvaluationContext(zoom: 22, properties: ["class": .string("ocean"), "area": .number(-1e308)], geometryType: "Polygon"),
] }

/// Arbitrary bytes as a JSON expression: parsed as an expression and as a filter, each parsed
/// one evaluated in every context. Failures are parse errors or evaluation errors, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExpression(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = FuzzInput.data(bytes, size)
    guard let json = try? JSONValue.parse(bytes: [UInt8](data)) else { return 0 }
    var parsed: [StyleExpression] = []
    if case .success(let expression) = StyleExpression.parse(json) { parsed.append(expression) }
    if case .success(let filter) = StyleExpression.parseFilter(json) { parsed.append(filter) }
    for expression in parsed {
        for context in contexts() {
            _ = try? expression.evaluate(context)
        }
    }
    return 0
}
