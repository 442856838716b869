import Testing
@testable import MapLibreStyleSpec

@Suite struct ColorTests {
    private func rgba(_ text: String) -> [Double]? { Color.parse(text)?.rgba }

    private func same(_ a: [Double]?, _ b: [Double]) -> Bool {
        guard let a else { return false }
        return zip(a, b).allSatisfy { abs($0 - $1) < 1e-6 }
    }

    @Test func cssForms() {
        #expect(same(rgba("red"), [1, 0, 0, 1]))
        #expect(same(rgba("  RebeccaPurple "), [102 / 255, 51 / 255, 153 / 255, 1]))
        #expect(same(rgba("transparent"), [0, 0, 0, 0]))
        #expect(same(rgba("#f00"), [1, 0, 0, 1]))
        #expect(same(rgba("#f008"), [1, 0, 0, 136 / 255]))
        #expect(same(rgba("#00ff7f"), [0, 1, 127 / 255, 1]))
        #expect(same(rgba("#00ff7f80"), [0, 1, 127 / 255, 128 / 255]))
        #expect(same(rgba("rgb(255, 128, 0)"), [1, 128 / 255, 0, 1]))
        #expect(same(rgba("rgba(255,0,0,0.5)"), [1, 0, 0, 0.5]))
        #expect(same(rgba("rgb(100% 50% 0% / 25%)"), [1, 0.5, 0, 0.25]))
        #expect(same(rgba("rgb(300, -5, 0)"), [1, 0, 0, 1]))
        #expect(same(rgba("hsl(120, 100%, 50%)"), [0, 1, 0, 1]))
        #expect(same(rgba("hsla(240deg 100% 50% / 0.5)"), [0, 0, 1, 0.5]))
        #expect(same(rgba("hsl(0, 0%, 50%)"), [0.5, 0.5, 0.5, 1]))
    }

    @Test func rejectedForms() {
        // Fullwidth digits count as hexadecimal digits to Swift's Character but not to CSS.
        for bad in ["reddish", "#ff", "#fffff", "#ggg", "rgb(1, 2)", "rgb(1 2, 3)", "rgb(10%, 2, 3)", "hsl(1, 2, 3)", "", "rgb(a, b, c)",
                    "#ａｂｃ", "#１２３４５６", "#ff00ff0", "#ff00ff000", "# fff", "#fff fff", "#"] {
            #expect(Color.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func hexDigitsInEitherCaseAndSpaceAroundTheColor() {
        #expect(same(rgba("#ABCDEF"), [0xAB / 255, 0xCD / 255, 0xEF / 255, 1]))
        #expect(same(rgba("#aBc"), [0xAA / 255, 0xBB / 255, 0xCC / 255, 1]))
        #expect(same(rgba("\t#0f0\n"), [0, 1, 0, 1]))
        #expect(same(rgba("\u{3000}Navy\u{A0}\r\n"), [0, 0, 128 / 255, 1]))
    }

    @Test func premultipliedForOutputUnpremultipliedForToRgba() throws {
        let c = Color.parse("rgba(255, 0, 0, 0.5)")!
        #expect([c.r, c.g, c.b, c.a] == [0.5, 0, 0, 0.5])
        #expect(c.rgba == [1, 0, 0, 0.5])
        let v = try evaluate(#"["to-rgba", "rgba(10, 20, 30, 0.25)"]"#)
        #expect(v == .array([.number(10), .number(20), .number(30), .number(0.25)]))
        #expect(try evaluate(#"["to-string", ["rgba", 255, 0, 0, 0.5]]"#) == .string("rgba(255,0,0,0.5)"))
        // Alpha 0 keeps the written channels for to-rgba.
        #expect(try evaluate(##"["to-rgba", "#ff000000"]"##) == .array([.number(255), .number(0), .number(0), .number(0)]))
    }

    @Test func interpolatedColorSpacesMatchMapLibre() throws {
        // Reference values from maplibre-style-spec (red → blue, 40 % of the way).
        let hcl = try evaluate(#"["interpolate-hcl", ["linear"], ["get", "x"], 1, "red", 11, "blue"]"#, properties: ["x": .number(5)], spec: colorSpec)
        #expect(closeColor(hcl, [1, 0, 0.425112, 1]))
        let lab = try evaluate(#"["interpolate-lab", ["linear"], ["get", "x"], 1, "red", 11, "blue"]"#, properties: ["x": .number(5)], spec: colorSpec)
        #expect(closeColor(lab, [0.814095, 0, 0.444772, 1]))
        let rgb = try evaluate(#"["interpolate", ["linear"], ["get", "x"], 0, "black", 10, "white"]"#, properties: ["x": .number(5)], spec: colorSpec)
        #expect(closeColor(rgb, [0.5, 0.5, 0.5, 1]))
    }
}
