import Testing
@testable import MapLibreStyleSpec

@Suite struct LegacyTests {
    private func passes(_ filter: String, _ props: [String: Value], type: String = "Point", id: Value = .null) throws -> Bool {
        let f = try StyleExpression.parseFilter(try json(filter)).get()
        return f.matches(EvaluationContext(properties: props, id: id, geometryType: type))
    }

    @Test func legacyFilters() throws {
        let road: [String: Value] = ["class": .string("motorway"), "lanes": .number(4)]
        #expect(try passes(#"["==", "class", "motorway"]"#, road))
        #expect(try !passes(#"["!=", "class", "motorway"]"#, road))
        #expect(try passes(#"["in", "class", "trunk", "motorway"]"#, road))
        #expect(try passes(#"["!in", "class", "trunk", "primary"]"#, road))
        #expect(try !passes(#"["in", "class"]"#, road))
        #expect(try passes(#"["has", "lanes"]"#, road))
        #expect(try passes(#"["!has", "width"]"#, road))
        #expect(try passes(#"[">=", "lanes", 4]"#, road))
        #expect(try !passes(#"["<", "lanes", "5"]"#, road))
        #expect(try passes(#"["all", ["==", "$type", "LineString"], ["in", "$type", "LineString", "Polygon"]]"#, road, type: "LineString"))
        #expect(try passes(#"["any", ["==", "class", "x"], ["==", "$id", 12]]"#, road, id: .number(12)))
        #expect(try passes(#"["none", ["==", "class", "x"], ["<", "lanes", 2]]"#, road))
        #expect(try passes(#"["has", "$id"]"#, road, id: .number(1)))
        #expect(try passes(#"["all"]"#, road))
        #expect(try !passes(#"["any"]"#, road))
        #expect(try passes("null", road))
        // Expression filters pass through.
        #expect(LegacyFilter.isExpressionFilter(try json(#"["==", ["get", "class"], "motorway"]"#)))
        #expect(try passes(#"["==", ["get", "class"], "motorway"]"#, road))
        #expect(LegacyFilter.convert(try json(#"["!in", "$type", "Point"]"#)) == (try json(#"["!", ["filter-type-in", ["literal", ["Point"]]]]"#)))
    }

    private func property(_ value: String, _ spec: PropertySpecification, zoom: Double = 0, _ props: [String: Value] = [:]) throws -> Value {
        let e = try StyleExpression.parseProperty(try json(value), spec: spec).get()
        return try e.evaluate(EvaluationContext(zoom: zoom, properties: props))
    }

    @Test func legacyFunctions() throws {
        let width = PropertySpecification(type: "number", interpolated: true)
        #expect(try property(#"{"stops": [[0, 1], [10, 11]]}"#, width, zoom: 5) == .number(6))
        #expect(close(try property(#"{"base": 2, "stops": [[0, 0], [2, 30]]}"#, width, zoom: 1).number, 10))
        #expect(try property(#"{"type": "interval", "stops": [[0, 1], [10, 11]]}"#, width, zoom: 9) == .number(1))
        #expect(try property(#"{"property": "n", "type": "categorical", "stops": [[1, 10], [2, 20]], "default": 0}"#, width, ["n": .number(2)]) == .number(20))
        #expect(try property(#"{"property": "n", "type": "categorical", "stops": [[1, 10]], "default": 0}"#, width, ["n": .number(3)]) == .number(0))
        #expect(try property(#"{"property": "n", "type": "identity"}"#, width, ["n": .number(7)]) == .number(7))
        #expect(try property(#"{"property": "n", "stops": [[0, 0], [10, 100]]}"#, width, ["n": .number(5)]) == .number(50))
        let zoomAndProperty = #"{"property": "n", "stops": [[{"zoom": 0, "value": 0}, 0], [{"zoom": 0, "value": 10}, 10], [{"zoom": 10, "value": 0}, 100], [{"zoom": 10, "value": 10}, 200]]}"#
        #expect(try property(zoomAndProperty, width, zoom: 5, ["n": .number(5)]) == .number(77.5))
        #expect(closeColor(try property(#"{"stops": [[0, "black"], [10, "white"]]}"#, colorSpec, zoom: 5), [0.5, 0.5, 0.5, 1]))
        #expect(closeColor(try property(##""#ff0000""##, colorSpec), [1, 0, 0, 1]))
        let text = PropertySpecification(type: "string", interpolated: false, tokens: true)
        #expect(try property(#"{"stops": [[0, "{name} ({ref})"]]}"#, text, ["name": .string("A1"), "ref": .number(3)]) == .string("A1 (3)"))
        #expect(LegacyFunction.tokenString("{name}") == (try json(#"["to-string", ["get", "name"]]"#)))
        #expect(LegacyFunction.tokenString("plain") == .string("plain"))
    }
}

@Suite struct ZoomInFilterTests {
    /// Filters may read `zoom` anywhere (as MapLibre's createFilter allows); properties only
    /// through a top-level curve.
    @Test func aFilterComparesAFeaturesMinZoomWithTheZoom() throws {
        let filter = try StyleExpression.parseFilter(try json(#"["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]"#)).get()
        let ctx = EvaluationContext(properties: ["min_zoom": .number(8)], id: .null, geometryType: "Point")
        ctx.zoom = 7
        #expect(!filter.matches(ctx))
        ctx.zoom = 8
        #expect(filter.matches(ctx))
        let property = StyleExpression.parse(try json(#"["+", ["zoom"], 1]"#))
        guard case .failure(let errors) = property else {
            Issue.record("zoom outside a curve parsed as a property")
            return
        }
        #expect(errors.errors.first?.message.contains("top-level") == true)
    }
}
