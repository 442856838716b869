import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// MapLibre style sources read over HTTP (TileJSON, tile templates), raster sources and GeoJSON files.
@Suite struct MapLibreSourceTests {
    typealias T = MapLibreStyleTests

    /// The fixture's tiles of levels 0–2, gzip'd as stored.
    static func fixtureTiles() async throws -> [String: Data] {
        let source = try MBTilesSource(spec: MBTilesSourceSpec(file: T.folder.appendingPathComponent("ne-omt.mbtiles")))
        var tiles: [String: Data] = [:]
        for z in 0...2 {
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    if case .found(.encoded(let data)) = await source.fetch(TileCoord(z: z, x: x, y: y), pixelRatio: 1).outcome {
                        tiles["/tiles/\(z)/\(x)/\(y).pbf"] = data
                    }
                }
            }
        }
        return tiles
    }

    static func server(contentType: String = "application/x-protobuf") async throws -> TestHTTPServer {
        let tiles = try await fixtureTiles()
        let server = try TestHTTPServer { request in
            if let body = tiles[request.path] { return .image(body, contentType: contentType) }
            return .status(404)
        }
        return server
    }

    static func load(_ json: String) throws -> MapStyle {
        try StyleLoader.load(text: json, origin: .file(T.folder.appendingPathComponent("remote.json")),
                             remote: RemoteEnvironment(client: TileHTTPClient(environment: [:]), cache: nil))
    }

    @Test(arguments: ["tiles", "tilejson"])
    func vectorTilesOverHTTP(_ form: String) async throws {
        let server = try await Self.server()
        defer { server.shutdown() }
        let folder = try TemporaryFolder()
        let tilejson = folder.url.appendingPathComponent("tiles.json")
        try #"{"tilejson": "3.0.0", "tiles": ["\#(server.baseURL)/tiles/{z}/{x}/{y}.pbf"], "minzoom": 0, "maxzoom": 2, "vector_layers": [{"id": "water", "fields": {}}]}"#
            .write(to: tilejson, atomically: true, encoding: .utf8)
        let source = form == "tiles" ? #""tiles": ["\#(server.baseURL)/tiles/{z}/{x}/{y}.pbf"], "maxzoom": 2"#
            : #""url": "\#(tilejson.path)""#
        let style = try Self.load("""
            {"version": 8, "sources": {"omt": {"type": "vector", \(source)}}, "layers": [\(T.landAndWater)]}
            """)
        // GL zoom 3: level 2 tiles, the deepest the server has, overzoomed.
        let (image, viewport) = try await T.render(style, lat: 45, lon: 0, zoom: 4)
        #expect(T.close(T.pixel(image, viewport, lat: 45, lon: -8), T.water))
        #expect(T.close(T.pixel(image, viewport, lat: 46, lon: 2), T.land))
        #expect(server.requests.allSatisfy { $0.path.hasPrefix("/tiles/2/") })
    }

    @Test func aServerAnsweringHTMLGivesNoVectorTile() async throws {
        let server = try await Self.server(contentType: "text/html")
        defer { server.shutdown() }
        let style = try Self.load("""
            {"version": 8, "sources": {"omt": {"type": "vector", "tiles": ["\(server.baseURL)/tiles/{z}/{x}/{y}.pbf"], "maxzoom": 2}},
             "layers": [\(T.landAndWater)]}
            """)
        let viewport = try Viewport(center: LonLat(lon: 0, lat: 45), zoom: 4, width: 64, height: 64)
        let result = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport)
        #expect(T.close(result.image.rgba(x: 10, y: 32), T.land))
        #expect(result.report.diagnostics.contains { $0.detail.contains("not a vector tile") })
        // The group's problems name their tile by its URL: no "tile ? (?)" in the warning.
        let warning = try #require(result.report.diagnostics.first { $0.detail.contains("not a vector tile") })
        #expect(warning.description.hasPrefix("layer '\(warning.layer)': \(server.baseURL)/tiles/"), "\(warning)")
        #expect(!warning.description.contains("?"), "\(warning)")
    }

    @Test func rasterSourceAndLayer() async throws {
        let raster = TestPaths.fixture("PMTiles/reference-z0-2.pmtiles").path
        let style = try Self.load("""
            {"version": 8, "sources": {"relief": {"type": "raster", "url": "pmtiles://\(raster)", "tileSize": 256}},
             "layers": [{"id": "relief", "type": "raster", "source": "relief", "paint": {"raster-opacity": 0.5}}]}
            """)
        let (image, _) = try await T.render(style, lat: 20, lon: 0, zoom: 2)
        let alphas = Set((0..<8).map { image.rgba(x: 32 * $0 + 16, y: 128).a })
        #expect(alphas.allSatisfy { (120...135).contains($0) }, "\(alphas)")
    }

    @Test func geoJSONFileRelativeToTheStyle() async throws {
        let style = try Self.load("""
            {"version": 8, "sources": {"cities": {"type": "geojson", "data": "../../../Styles/data/ne_110m_cities.geojson"}},
             "layers": [{"id": "cities", "type": "circle", "source": "cities", "filter": ["==", ["get", "name"], "Madrid"],
                         "paint": {"circle-radius": 5, "circle-color": "#00ff00"}}]}
            """)
        let (image, viewport) = try await T.render(style, lat: 40, lon: 0, zoom: 5)
        #expect(T.pixel(image, viewport, lat: 40.401972, lon: -3.685297) == RGBA(r: 0, g: 255, b: 0))
        #expect(T.pixel(image, viewport, lat: 41.4, lon: 2.2).a == 0)
    }
}
