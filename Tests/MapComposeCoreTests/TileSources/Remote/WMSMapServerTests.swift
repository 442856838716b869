import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// `type: wms` against a real MapServer (Debian's mapserv behind a server on 127.0.0.1): a view
/// drawn through tiled or single GetMaps matches the server's own GetMap of the view's bbox.
@Suite(.serialized) struct WMSMapServerTests {
    let gateway: MapServerGateway
    let folder: TemporaryFolder

    init() throws {
        gateway = try MapServerGateway()
        folder = try TemporaryFolder()
    }

    private func style(_ extra: String, version: String) throws -> MapStyle {
        let yaml = """
            layers:
              - id: wms
                source:
                  type: wms
                  url: "\(gateway.server.baseURL)/cgi-bin/mapserv"
                  params: {MAP: "\(gateway.mapfile.path)"}
                  version: "\(version)"
                  layers: land,borders
                  transparent: false
                  \(extra)
            """
        return try StyleLoader.load(file: try folder.write(yaml, to: "wms.yaml"),
                                    remote: RemoteEnvironment(client: TileHTTPClient(environment: [:]), cache: nil))
    }

    /// The server's GetMap of exactly `viewport`.
    private func reference(_ viewport: Viewport, version: WMSVersion) async throws -> RasterImage {
        let getMap = WMSGetMap(url: "\(gateway.server.baseURL)/cgi-bin/mapserv", version: version, layers: "land,borders",
                               transparent: false, params: ["MAP": gateway.mapfile.path])
        let url = getMap.url(for: viewport.extent, width: viewport.deviceWidth, height: viewport.deviceHeight)
        let answer = try await TileHTTPClient(environment: [:]).get(url, settings: HTTPSettings()).get()
        #expect(answer.mediaType == "image/png", "\(String(decoding: answer.body.prefix(300), as: UTF8.self))")
        return try TileDecoder.decode(answer.body)
    }

    /// A point on the Natural Earth coastline of Australia, so deep zooms show an edge.
    static let coast = LonLat(lon: 153.03, lat: -27.5)

    @Test(arguments: ["1.1.1", "1.3.0"], ["tiled", "single", "tiled-metatile"])
    func aViewMatchesTheServersOwnGetMapAtZoom3And17(version: String, mode: String) async throws {
        let extra: String
        switch mode {
        case "single": extra = "mode: single\n      max-size: 300"
        case "tiled-metatile": extra = "metatile: 2\n      buffer: 8"
        default: extra = "mode: tiled"
        }
        let style = try style(extra, version: version)
        for (center, zoom) in [(LonLat(lon: 10.3, lat: 47.2), 3.0), (try Self.coastPoint(), 17.0)] {
            let viewport = try Viewport(center: center, zoom: zoom, width: 480, height: 360)
            let result = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport)
            #expect(result.report.diagnostics.isEmpty, "\(result.report.diagnostics)")
            let expected = try await reference(viewport, version: try #require(WMSVersion(rawValue: version)))
            let outcome = try GoldenComparison(name: "wms-\(version)-\(mode)-z\(Int(zoom))", threshold: 0.1,
                                               maxDifferingFraction: 0.01).compare(actual: result.image, expected: expected)
            #expect(outcome.passed, "\(version) \(mode) z\(zoom): \(outcome.summary)")
            let varied = RenderHelpersForRemote.distinctColors(expected)
            #expect(varied >= 3, "the view shows land, sea and a border (\(varied) colours)")
        }
    }

    @Test func aBadLayersValueSurfacesTheServersException() async throws {
        let yaml = """
            layers:
              - id: wms
                source: {type: wms, url: "\(gateway.server.baseURL)/cgi-bin/mapserv?MAP=\(gateway.mapfile.path)", layers: no_such_layer}
            """
        let style = try StyleLoader.load(file: try folder.write(yaml, to: "bad.yaml"),
                                         remote: RemoteEnvironment(client: TileHTTPClient(environment: [:]), cache: nil))
        let viewport = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 1, width: 256, height: 256)
        let result = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport)
        let messages = result.report.diagnostics.map(\.description)
        #expect(!messages.isEmpty)
        #expect(messages.allSatisfy { $0.contains("service exception") && $0.contains("Invalid layer(s) given in the LAYERS parameter") },
                "\(messages.first ?? "")")
        #expect(result.image.rgba(x: 128, y: 128).a == 0)
    }

    /// A zoom-18 tile asked for with a Float BBOX differs from the same tile asked for with the
    /// exact one, which equals the middle of a 3×3 GetMap around it.
    @Test func aFloatBBoxDrawsAnotherPictureAtZoom18() async throws {
        let grid = TileMatrix.webMercator()
        let point = try Self.coastPoint()
        let center = WebMercator.meters(from: point)
        let tile = try #require(grid.covering(MetersRect(minX: center.x, minY: center.y, maxX: center.x + 0.01, maxY: center.y + 0.01),
                                              level: 18)?.tiles.first)
        let box = grid.tileExtent(level: 18, column: tile.x, row: tile.y)
        let getMap = WMSGetMap(url: "\(gateway.server.baseURL)/cgi-bin/mapserv", layers: "land,borders", transparent: false,
                               params: ["MAP": gateway.mapfile.path])
        let client = TileHTTPClient(environment: [:])
        func picture(_ url: EnvironmentReference) async throws -> RasterImage {
            try TileDecoder.decode(try await client.get(url, settings: HTTPSettings()).get().body)
        }
        let exact = try await picture(getMap.url(for: box, width: 256, height: 256))
        let floatText = [box.minX, box.minY, box.maxX, box.maxY].map { "\(Float($0))" }.joined(separator: ",")
        let floatURL = EnvironmentReference(getMap.url(for: box, width: 256, height: 256).text
            .replacingOccurrences(of: WMSGetMap.escape(getMap.bboxText(box)), with: WMSGetMap.escape(floatText)))
        let float = try await picture(floatURL)
        let span = box.width
        let around = MetersRect(minX: box.minX - span, minY: box.minY - span, maxX: box.maxX + span, maxY: box.maxY + span)
        let block = try await picture(getMap.url(for: around, width: 768, height: 768))
        let middle = try block.cropped(x: 256, y: 256, width: 256, height: 256)
        let ours = try ImageDiff.compare(exact, middle, threshold: 0.1)
        let theirs = try ImageDiff.compare(float, middle, threshold: 0.1)
        #expect(ours.differingFraction <= 0.001, "exact BBOX: \(ours.differingPixels) pixels differ")
        #expect(theirs.differingPixels > ours.differingPixels + 50, "Float BBOX: \(theirs.differingPixels) pixels differ")
    }

    /// A vertex of the Natural Earth coastline near Brisbane (found in the data, so the test
    /// does not depend on a hand-picked coordinate staying on the coast).
    static func coastPoint() throws -> LonLat {
        let url = TestPaths.repositoryRoot.appendingPathComponent("Styles/data/ne_110m_countries.geojson")
        let text = try String(contentsOf: url, encoding: .utf8)
        var best: (LonLat, Double)?
        let numbers = text.split(whereSeparator: { !"0123456789.-".contains($0) }).compactMap { Double(String($0)) }
        for index in stride(from: 0, to: numbers.count - 1, by: 1) {
            let lon = numbers[index], lat = numbers[index + 1]
            let distance = abs(lon - coast.lon) + abs(lat - coast.lat)
            if distance < (best?.1 ?? 1.5) { best = (LonLat(lon: lon, lat: lat), distance) }
        }
        return try #require(best?.0)
    }
}

enum RenderHelpersForRemote {
    /// Distinct colours in an image (up to 64 counted).
    static func distinctColors(_ image: RasterImage) -> Int {
        var seen: Set<UInt32> = []
        image.withPixels { pixels, _ in
            for pixel in pixels where seen.count < 64 { seen.insert(pixel) }
        }
        return seen.count
    }
}
