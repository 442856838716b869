import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

/// A viewport of `Tests/Fixtures/ArcGIS/manifest.json` (written by scripts/reference/make_arcgis.py).
struct ArcGISViewport: Decodable, Sendable, CustomTestStringConvertible {
    let name: String
    /// [lat, lon]
    let center: [Double]
    let zoom: Double
    let width: Int
    let height: Int
    /// Metres per output pixel.
    let resolution: Double
    /// The LOD MapProxy's closest_level picks for this resolution.
    let level: Int
    /// True when the resolution is an LOD's and the bbox lies on that level's pixel grid.
    let exactLevel: Bool

    enum CodingKeys: String, CodingKey {
        case name, center, zoom, width, height, resolution, level
        case exactLevel = "exact_level"
    }

    var testDescription: String { name }

    struct Manifest: Decodable {
        struct Group: Decodable { let viewports: [ArcGISViewport] }
        let standard: Group
        let custom: Group
    }

    static let manifest: Manifest = {
        let data = try! Data(contentsOf: TestPaths.fixture("ArcGIS/manifest.json"))
        return try! JSONDecoder().decode(Manifest.self, from: data)
    }()

    /// Renders this viewport from one layer of `source` (a style's source mapping) on a magenta
    /// background (so a gap shows).
    func render(source: String, name: String) async throws -> RenderResult {
        let folder = try TemporaryFolder()
        let style = try StyleLoader.load(file: try folder.write("""
            name: \(name)
            background: "#ff00ff"
            layers:
              - id: cache
                source: \(source)
            """, to: "style.yaml"))
        let viewport = try Viewport(center: LonLat(lon: center[1], lat: center[0]), zoom: zoom, width: width, height: height)
        #expect(abs(viewport.resolution - resolution) < resolution * 1e-9)
        return try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport)
    }
}

/// ArcGIS caches seeded by MapProxy from one MapServer rendering (scripts/reference/make_arcgis.py):
/// the exploded, compact v1 and compact v2 caches and MapProxy's XYZ folder of the same tiles
/// draw identical pixels; a cache on a grid of its own (512-px tiles, non-halving resolutions, a
/// custom origin) matches MapProxy's own WMS GetMap from that cache.
@Suite struct ArcGISReferenceTests {
    enum Store: String, CaseIterable, Sendable {
        case exploded, compactV1 = "compact-v1", compactV2 = "compact-v2", xyz

        var sourceYAML: String {
            let root = TestPaths.fixture("ArcGIS/standard").path
            switch self {
            case .xyz: return "{type: xyz, path: \"\(root)/xyz/{z}/{x}/{y}.png\"}"
            // The cache folder above the layer folder: its one data frame is drawn.
            case .exploded: return "{type: arcgis, path: \"\(root)/exploded\"}"
            default: return "{type: arcgis, path: \"\(root)/\(rawValue)/Layers\"}"
            }
        }
    }

    @Test("the exploded, compact v1, compact v2 and XYZ copies draw identical pixels",
          arguments: ArcGISViewport.manifest.standard.viewports)
    func everyStorageFormatDrawsTheSamePixels(_ viewport: ArcGISViewport) async throws {
        #expect(ArcGISViewport.manifest.standard.viewports.count >= 2)
        let reference = try await viewport.render(source: Store.exploded.sourceYAML, name: "arcgis-\(viewport.name)-exploded")
        #expect(reference.report.layers[0].level == viewport.level)
        #expect(reference.report.layers[0].tilesMissing == 0)
        #expect(reference.report.layers[0].tilesDrawn > 0)
        #expect(reference.report.layers[0].sourceNotes?.contains { $0.contains("data frame 'Layers'") } == true)
        for store in Store.allCases.dropFirst() {
            let result = try await viewport.render(source: store.sourceYAML, name: "arcgis-\(viewport.name)-\(store.rawValue)")
            let layer = result.report.layers[0]
            #expect(layer.level == viewport.level, "\(store)")
            #expect(layer.tilesMissing == 0, "\(store)")
            // Threshold 0 and no differing pixel allowed: the same pixels exactly.
            let comparison = GoldenComparison(name: "arcgis-\(viewport.name)-\(store.rawValue)", threshold: 0,
                                              maxDifferingFraction: 0)
            let outcome = try comparison.compare(actual: result.image, expected: reference.image)
            print("arcgis \(viewport.name) \(store.rawValue) vs exploded: \(outcome.summary)")
            #expect(outcome.passed, "\(store): \(outcome.summary); see \(outcome.resultsFolder?.path ?? "")")
            #expect(Self.samePixels(result.image, reference.image), "\(store): pixels differ")
        }
    }

    static func samePixels(_ a: RasterImage, _ b: RasterImage) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        for y in 0..<a.height {
            for x in 0..<a.width where a.rgba(x: x, y: y) != b.rgba(x: x, y: y) { return false }
        }
        return true
    }

    static let customSource = "{type: arcgis, path: \"\(TestPaths.fixture("ArcGIS/custom/Layers").path)\"}"

    /// At an LOD's resolution, on its pixel grid, at most 0.1% of pixels may differ from
    /// MapProxy's GetMap; between LODs (both resample the level's tiles) at most 1%; pixelmatch
    /// threshold 0.1 in both cases.
    @Test("a 512-px, non-halving, custom-origin cache matches MapProxy's GetMap",
          arguments: ArcGISViewport.manifest.custom.viewports)
    func customGridMatchesMapProxy(_ viewport: ArcGISViewport) async throws {
        #expect(ArcGISViewport.manifest.custom.viewports.filter(\.exactLevel).count >= 2)
        #expect(ArcGISViewport.manifest.custom.viewports.filter { !$0.exactLevel }.count >= 2)
        let result = try await viewport.render(source: Self.customSource, name: "arcgis-custom-\(viewport.name)")
        let layer = result.report.layers[0]
        #expect(layer.level == viewport.level, "level \(String(describing: layer.level)), MapProxy's \(viewport.level)")
        #expect(layer.tilesMissing == 0)
        #expect(layer.grid.hasPrefix("arcgis-512x512"))
        let expected = try GoldenComparison.load(TestPaths.fixture("ArcGIS/custom/getmap/\(viewport.name).png"))
        let limit = viewport.exactLevel ? 0.001 : 0.01
        let comparison = GoldenComparison(name: "arcgis-custom-\(viewport.name)", threshold: 0.1, maxDifferingFraction: limit)
        let outcome = try comparison.compare(actual: result.image, expected: expected)
        print("arcgis custom \(viewport.name) [level \(viewport.level)\(viewport.exactLevel ? ", exact" : "")]: \(outcome.summary)")
        #expect(outcome.passed, "\(outcome.summary) (limit \(limit * 100)%); see \(outcome.resultsFolder?.path ?? "")")
    }
}
