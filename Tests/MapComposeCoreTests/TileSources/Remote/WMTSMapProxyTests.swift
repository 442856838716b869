import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// `type: wmts` against MapProxy's WMTS service on 127.0.0.1. Layer `naturalearth` serves the
/// MapServer reference tiles as its cache: a view drawn through WMTS (KVP and RESTful) equals the
/// same view drawn from that XYZ folder. Layer `custom` serves the custom-grid ArcGIS fixture
/// (512-px tiles, non-halving resolutions, a custom origin) on that grid: views drawn through
/// WMTS equal the same views drawn from the cache itself.
@Suite(.serialized) struct WMTSMapProxyTests {
    let mapproxy: MapProxyServer
    let folder: TemporaryFolder
    static let tiles = TestPaths.fixture("Reference/tiles")
    static let customCache = TestPaths.fixture("ArcGIS/custom/Layers")

    init() throws {
        mapproxy = try MapProxyServer(config: """
            services:
              wmts: {restful: true, kvp: true}
            layers:
              - {name: naturalearth, title: Natural Earth, sources: [reference]}
              - {name: custom, title: Custom grid, sources: [custom]}
            grids:
              custom:
                srs: "EPSG:3857"
                bbox_srs: "EPSG:3857"
                bbox: [-4000000.0, 1000000.0, 6000000.0, 11000000.0]
                tile_size: [512, 512]
                origin: ul
                res: [10000.0, 6000.0, 3700.0, 2300.0, 1400.0]
            caches:
              reference:
                grids: [GLOBAL_WEBMERCATOR]
                sources: []
                format: image/png
                cache: {type: file, directory_layout: tms, directory: "\(Self.tiles.path)"}
              custom:
                grids: [custom]
                sources: []
                format: image/png
                cache: {type: compact, version: 2, directory: "\(Self.customCache.path)/_alllayers"}
            """)
        folder = try TemporaryFolder()
    }

    private func load(_ source: String) throws -> MapStyle {
        try StyleLoader.load(file: try folder.write("layers:\n  - {id: l, source: \(source)}\n", to: "style.yaml"),
                             remote: RemoteEnvironment(client: TileHTTPClient(environment: [:]), cache: nil))
    }

    @Test(arguments: ["/service?SERVICE=WMTS&REQUEST=GetCapabilities", "/wmts/1.0.0/WMTSCapabilities.xml"])
    func aViewThroughWMTSEqualsTheSameViewFromTheTileFolder(capabilities: String) async throws {
        let wmts = try load("{type: wmts, url: \"\(mapproxy.baseURL)\(capabilities)\", layer: naturalearth}")
        let local = try load("{type: xyz, path: \"\(Self.tiles.path)/{z}/{x}/{y}.png\", maxzoom: 4}")
        for (center, zoom) in [(LonLat(lon: 10.3, lat: 47.2), 3.0), (LonLat(lon: -60, lat: -20), 2.4), (LonLat(lon: 170, lat: 40), 4.0)] {
            let viewport = try Viewport(center: center, zoom: zoom, width: 600, height: 400)
            let options = RenderOptions(attribution: false)
            let through = try await MapRenderer(style: wmts, options: options).render(viewport)
            let direct = try await MapRenderer(style: local, options: options).render(viewport)
            #expect(through.report.diagnostics.filter { $0.kind != .tilesAbsent }.isEmpty, "\(through.report.diagnostics)")
            #expect(through.report.layers[0].tilesDrawn > 0)
            let outcome = try GoldenComparison(name: "wmts-\(capabilities.hasPrefix("/wmts") ? "rest" : "kvp")-z\(zoom)",
                                               threshold: 0, maxDifferingFraction: 0)
                .compare(actual: through.image, expected: direct.image)
            #expect(outcome.passed, "\(outcome.summary)")
        }
    }

    @Test func aCustomTileMatrixSetDrawsLikeTheCacheItServes() async throws {
        let wmts = try load("{type: wmts, url: \"\(mapproxy.baseURL)/wmts/1.0.0/WMTSCapabilities.xml\", layer: custom}")
        let cache = try load("{type: arcgis, path: \"\(Self.customCache.path)\"}")
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: TestPaths.fixture("ArcGIS/manifest.json")))
        let viewports = try #require(((manifest as? [String: Any])?["custom"] as? [String: Any])?["viewports"] as? [[String: Any]])
        #expect(viewports.count >= 3)
        for entry in viewports {
            let name = try #require(entry["name"] as? String)
            let center = try #require(entry["center"] as? [Double])
            let viewport = try Viewport(center: LonLat(lon: center[1], lat: center[0]), zoom: try #require(entry["zoom"] as? Double),
                                        width: try #require(entry["width"] as? Int), height: try #require(entry["height"] as? Int))
            let options = RenderOptions(attribution: false)
            let through = try await MapRenderer(style: wmts, options: options).render(viewport)
            let direct = try await MapRenderer(style: cache, options: options).render(viewport)
            #expect(through.report.diagnostics.filter { $0.kind != .tilesAbsent }.isEmpty, "\(name): \(through.report.diagnostics)")
            #expect(through.report.layers[0].tilesDrawn > 0, "\(name)")
            #expect(through.report.layers[0].level == direct.report.layers[0].level, "\(name)")
            let outcome = try GoldenComparison(name: "wmts-custom-\(name)", threshold: 0, maxDifferingFraction: 0)
                .compare(actual: through.image, expected: direct.image)
            #expect(outcome.passed, "\(name): \(outcome.summary)")
        }
    }

    @Test func theShippedStyleLoadsAgainstMapProxy() throws {
        let shipped = try String(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("Styles/wmts.yaml"), encoding: .utf8)
        #expect(shipped.contains("http://127.0.0.1:8080/"))
        let style = try StyleLoader.load(file: try folder.write(shipped.replacingOccurrences(of: "http://127.0.0.1:8080", with: mapproxy.baseURL),
                                                                to: "wmts.yaml"),
                                         remote: RemoteEnvironment(client: TileHTTPClient(environment: [:]), cache: nil))
        #expect(style.layers.map(\.spec.id) == ["naturalearth"])
        #expect(style.layers[0].source is WMTSTileSource)
    }

    @Test func unknownChoicesListWhatTheCapabilitiesOffer() throws {
        #expect {
            _ = try load("{type: wmts, url: \"\(mapproxy.baseURL)/wmts/1.0.0/WMTSCapabilities.xml\", layer: rivers}")
        } throws: { error in
            "\(error)".contains("no layer 'rivers' (the capabilities offer 'naturalearth', 'custom')")
        }
        #expect {
            _ = try load("{type: wmts, url: \"\(mapproxy.baseURL)/wmts/1.0.0/WMTSCapabilities.xml\"}")
        } throws: { error in
            "\(error)".contains("more than one layer: 'naturalearth', 'custom'; name one with 'layer'")
        }
        #expect {
            _ = try load("{type: wmts, url: \"\(mapproxy.baseURL)/wmts/1.0.0/WMTSCapabilities.xml\", layer: naturalearth, format: image/gif}")
        } throws: { error in
            "\(error)".contains("no format of layer 'naturalearth' 'image/gif'")
        }
        #expect {
            _ = try load("{type: wmts, url: \"\(mapproxy.baseURL)/nothing.xml\"}")
        } throws: { error in
            "\(error)".contains("HTTP 404")
        }
    }
}
