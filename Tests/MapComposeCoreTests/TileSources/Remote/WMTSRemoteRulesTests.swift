import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// WMTS tiles go through the same HTTP client, disk cache and miss rules as other remote
/// tiles: a 404 is a definite miss remembered on disk, tiles outside the layer's
/// `TileMatrixSetLimits` are never asked for, and a second process is served by the cache.
@Suite struct WMTSRemoteRulesTests {
    typealias F = RemoteTestFixture

    /// MapProxy's RESTful capabilities (Tests/Fixtures/WMTS) pointing at `host`, with level 01
    /// of `naturalearth` limited to its top row.
    static func capabilities(host: String) throws -> Data {
        let text = try String(contentsOf: TestPaths.fixture("WMTS/capabilities-rest.xml"), encoding: .utf8)
            .replacingOccurrences(of: "http://localhost", with: "http://\(host)")
            .replacingOccurrences(of: "<TileMatrixSet>webmercator</TileMatrixSet>\n      </TileMatrixSetLink>", with: """
                <TileMatrixSet>webmercator</TileMatrixSet><TileMatrixSetLimits><TileMatrixLimits><TileMatrix>01</TileMatrix>
                <MinTileRow>0</MinTileRow><MaxTileRow>0</MaxTileRow><MinTileCol>0</MinTileCol><MaxTileCol>1</MaxTileCol>
                </TileMatrixLimits></TileMatrixSetLimits></TileMatrixSetLink>
                """)
        #expect(text.contains("<TileMatrixSetLimits>"))
        return Data(text.utf8)
    }

    @Test func limitsAMissAndTheDiskCacheApplyToWMTSTiles() async throws {
        let fixture = try F { request in
            switch request.path {
            case "/caps.xml":
                guard let data = try? Self.capabilities(host: request.headers["host"] ?? "") else { return .status(500) }
                return .respond(status: 200, headers: [("Content-Type", "application/xml")], body: data)
            case "/wmts/naturalearth/webmercator/01/1/0.png":
                return .image(F.png(F.red), headers: [("Cache-Control", "max-age=3600")])
            case "/wmts/naturalearth/webmercator/01/0/0.png":
                return .status(404)
            default:
                return .status(400)
            }
        }
        let source = "{type: wmts, url: \"{base}/caps.xml\", layer: naturalearth}"
        let first = try await fixture.renderWorld(try fixture.style(source, remote: fixture.environment()))
        #expect(F.colorOfTile(first.image, x: 1, y: 0) == F.red)
        #expect(F.colorOfTile(first.image, x: 0, y: 0).a == 0, "the 404 tile is a gap")
        #expect(F.colorOfTile(first.image, x: 0, y: 1).a == 0 && F.colorOfTile(first.image, x: 1, y: 1).a == 0)
        #expect(fixture.server.requests.map(\.path).sorted() == [
            "/caps.xml", "/wmts/naturalearth/webmercator/01/0/0.png", "/wmts/naturalearth/webmercator/01/1/0.png",
        ], "one request per tile inside the limits, none for the bottom row")
        let notServed = first.report.diagnostics.filter { $0.kind == .tileNotServed }
        #expect(notServed.count == 1 && notServed.first?.count == 1, "\(first.report.diagnostics)")
        #expect(notServed.first?.description.contains("/wmts/naturalearth/webmercator/01/0/0.png") == true)

        // A second process: capabilities, the tile and the 404 all come from the disk cache.
        let second = try await fixture.renderWorld(try fixture.style(source, remote: fixture.environment()))
        #expect(F.colorOfTile(second.image, x: 1, y: 0) == F.red)
        #expect(fixture.server.requests.count == 3)
    }
}
