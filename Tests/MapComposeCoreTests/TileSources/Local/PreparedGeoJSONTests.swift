import Foundation
import Testing
@testable import MapComposeCore

/// The built-in style's data stored ready to read gives the same features as parsing its
/// text: the same labels and, bit for bit, the same projected coordinates and bounds.
@Suite struct PreparedGeoJSONTests {
    static let style = BuiltInStyle.named("default")!

    static func same(_ a: [ProjectedFeature], _ b: [ProjectedFeature]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in
            x.label == y.label && x.points == y.points && x.lines == y.lines && x.polygons == y.polygons
                && [x.minX, x.minY, x.maxX, x.maxY] == [y.minX, y.minY, y.maxX, y.maxY]
        }
    }

    @Test(arguments: ["data/ne_110m_countries.geojson", "data/ne_110m_cities.geojson"])
    func storedFeaturesEqualTheParsedText(path: String) throws {
        let text = Data(try #require(Self.style.files[path]).utf8)
        let pack = try #require(StyleOrigin.builtIn(Self.style).preparedGeoJSON(at: path))
        for label in ["name", nil] as [String?] {
            let parsed = try GeoJSONFeatures.parse(text, labelProperty: label)
            let stored = try #require(PreparedGeoJSON.features(pack, labelProperty: label))
            #expect(parsed.count > 100)
            #expect(Self.same(stored, parsed), "\(path), label \(label ?? "none")")
        }
        #expect(PreparedGeoJSON.features(pack, labelProperty: "iso_a3") == nil, "another label property is parsed from the text")
        #expect(PreparedGeoJSON.features(pack.dropLast(3), labelProperty: nil) == nil, "a cut pack is not read")
    }

    @Test func theDefaultStyleReadsItsStoredFeatures() throws {
        let document = try BuiltInStyleData.load("default").document
        let specs = document.layers.compactMap { layer -> GeoJSONSourceSpec? in
            if case .geojson(let spec) = layer.source { return spec }
            return nil
        }
        #expect(specs.count == 3 && specs.allSatisfy { $0.prepared != nil })
        // The text is there when asked for, and the identity names the file instead of hashing it.
        let countries = try #require(specs.first { $0.path.hasSuffix("countries.geojson") })
        #expect(countries.data == Data(EmbeddedStyleFiles.countries.utf8))
        let source = try GeoJSONTileSource(spec: countries)
        #expect(source.info.identity.hasPrefix("geojson:built-in/data/ne_110m_countries.geojson:"))
        #expect(source.features.count == (try GeoJSONTileSource(spec: GeoJSONSourceSpec(data: countries.data, path: "c",
                                                                                      symbolizer: countries.symbolizer))).features.count)
        // Data set by hand is data like any other: its digest names it.
        var replaced = countries
        replaced.data = Data(#"{"type": "Point", "coordinates": [1, 2]}"#.utf8)
        #expect(replaced.prepared == nil)
        let replacedSource = try GeoJSONTileSource(spec: replaced)
        #expect(replacedSource.features.count == 1 && !replacedSource.info.identity.hasPrefix("geojson:built-in"))
    }
}
