import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// A style says whether it draws MapLibre labels, which Pango sets (so a render sets Pango up
/// while it reads its tiles): MapLibre styles with symbol layers do, raster styles and MapLibre
/// styles without symbols do not.
@Suite struct MapStyleLabelsTests {
    func style(_ name: String) throws -> MapStyle {
        try StyleLoader.load(file: TestPaths.repositoryRoot.appendingPathComponent("Styles/\(name)"))
    }

    @Test func mapLibreSymbolLayersDrawLabels() throws {
        #expect(try style("maplibre-labels.json").drawsMapLibreLabels)
    }

    @Test func rasterStylesAndSymbolFreeMapLibreStylesDoNot() throws {
        #expect(try !style("xyz-folder.yaml").drawsMapLibreLabels)
        let folder = try TemporaryFolder()
        try folder.write(#"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}}]}"#,
                         to: "bare.json")
        #expect(try !StyleLoader.load(file: folder.url.appendingPathComponent("bare.json")).drawsMapLibreLabels)
    }
}
