import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Metatiled WMS requests against the scripted server: one GetMap for the tiles of a metatile
/// asked at once, cut at the right pixels, and a picture of the wrong size refused.
@Suite struct WMSMetatileTests {
    typealias F = RemoteTestFixture

    /// A picture of the requested size whose left half is red and right half blue.
    static func halves(_ request: TestHTTPServer.Request) -> TestHTTPServer.Answer {
        let width = Int(request.parameters["WIDTH"] ?? "") ?? 1, height = Int(request.parameters["HEIGHT"] ?? "") ?? 1
        guard let image = try? RasterImage(width: width, height: height, color: { x, _ in x < width / 2 ? F.red : F.blue }),
              let png = try? ImageEncoder.png(image) else { return .status(500) }
        return .image(png)
    }

    @Test func theTilesOfAMetatileComeFromOneGetMapCutAtTheirPixels() async throws {
        let fixture = try F(Self.halves)
        let style = try fixture.style("{type: wms, url: \"{base}/wms\", layers: a, metatile: 2, buffer: 16}", fallback: false,
                                      remote: fixture.environment(cache: false))
        let result = try await fixture.renderWorld(style)
        #expect(fixture.server.requests.count == 1)
        let request = try #require(fixture.server.requests.first)
        #expect(request.parameters["WIDTH"] == "544" && request.parameters["HEIGHT"] == "544")
        #expect(F.colorOfTile(result.image, x: 0, y: 0) == F.red && F.colorOfTile(result.image, x: 0, y: 1) == F.red)
        #expect(F.colorOfTile(result.image, x: 1, y: 0) == F.blue && F.colorOfTile(result.image, x: 1, y: 1) == F.blue)
        #expect(result.image.rgba(x: 255, y: 10) == F.red && result.image.rgba(x: 256, y: 10) == F.blue,
                "the buffer is cut off: the halves meet at the middle")
    }

    @Test func aPictureOfTheWrongSizeIsRefusedBeforeDecoding() async throws {
        let fixture = try F { _ in .image(F.png(F.red)) }  // always 256×256
        let style = try fixture.style("{type: wms, url: \"{base}/wms\", layers: a, metatile: 2}", fallback: false,
                                      remote: fixture.environment(cache: false))
        let result = try await fixture.renderWorld(style)
        #expect(F.colorOfTile(result.image, x: 0, y: 0).a == 0)
        #expect(result.report.problems.count == 4)
        #expect(result.report.problems.first?.detail.contains("tile is 256x256 pixels; the grid's tiles are 512x512") == true)
    }
}
