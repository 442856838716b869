import Foundation
import Testing
@testable import MapComposeCore

/// A GeoJSON source's tiles are kept (and shared between layers) by its identity: the same data
/// drawn the same way shares tiles; other data, or any field of the symbolizer changed, does not.
@Suite struct GeoJSONSourceIdentityTests {
    static let data = Data(#"{"type": "Point", "coordinates": [10, 20], "properties": {"name": "A"}}"#.utf8)

    static func identity(_ symbolizer: FeatureSymbolizer, data: Data = data) throws -> String {
        try GeoJSONTileSource(spec: GeoJSONSourceSpec(data: data, path: "t.geojson", symbolizer: symbolizer)).info.identity
    }

    @Test func equalDataAndSymbolizerShareAnIdentity() throws {
        #expect(try Self.identity(FeatureSymbolizer()) == Self.identity(FeatureSymbolizer()))
        let labelled = FeatureSymbolizer(labelProperty: "name")
        #expect(try Self.identity(labelled) == Self.identity(FeatureSymbolizer(labelProperty: "name")))
    }

    @Test func anyFieldOfTheSymbolizerOrTheDataTellsThemApart() throws {
        let base = FeatureSymbolizer()
        var variants: [FeatureSymbolizer] = []
        func variant(_ change: (inout FeatureSymbolizer) -> Void) {
            var symbolizer = base
            change(&symbolizer)
            variants.append(symbolizer)
        }
        variant { $0.fill = nil }
        variant { $0.fill = RGBA(r: 1, g: 2, b: 3) }
        variant { $0.stroke = nil }
        variant { $0.width = 1.5 }
        variant { $0.radius = 4 }
        variant { $0.labelProperty = "name" }
        variant { $0.labelColor = RGBA(r: 0, g: 0, b: 0) }
        variant { $0.labelSize = 12 }
        variant { $0.labelHalo = nil }
        let identities = try ([base] + variants).map { try Self.identity($0) }
        #expect(Set(identities).count == identities.count, "\(identities)")
        let otherData = Data(#"{"type": "Point", "coordinates": [10, 21]}"#.utf8)
        #expect(try Self.identity(base, data: otherData) != Self.identity(base))
    }

    @Test func coloursAreWrittenAsHex() {
        #expect(RGBA(r: 0, g: 15, b: 171, a: 255).description == "#000fabff")
        #expect(RGBA(r: 255, g: 16, b: 1, a: 0).description == "#ff100100")
    }
}
