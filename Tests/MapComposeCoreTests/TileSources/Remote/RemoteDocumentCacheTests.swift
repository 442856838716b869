import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// A TileJSON or capabilities document that does not read is reported and not cached, however
/// long the server says to keep it: the next load asks the server again.
@Suite struct RemoteDocumentCacheTests {
    typealias F = RemoteTestFixture

    /// A server whose `path` answers `broken` until `fixed` is set, then `good(host)`; every
    /// answer may be kept for a day.
    final class Document: @unchecked Sendable {
        private let lock = NSLock()
        private var isFixed = false
        func fix() { lock.withLock { isFixed = true } }
        var fixed: Bool { lock.withLock { isFixed } }
    }

    static func fixture(path: String, broken: String, good: @escaping @Sendable (String) -> Data,
                        document: Document) throws -> F {
        try F { request in
            guard request.path == path else { return .status(404) }
            let body = document.fixed ? good(request.headers["host"] ?? "") : Data(broken.utf8)
            return .respond(status: 200, headers: [("Content-Type", "application/octet-stream"), ("Cache-Control", "max-age=86400")],
                            body: body)
        }
    }

    static func expectFailure(_ load: () throws -> MapStyle, saying reason: String) {
        #expect {
            _ = try load()
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func aTileJSONThatDoesNotReadIsNotCached() throws {
        let document = Document()
        let fixture = try Self.fixture(path: "/tiles.json", broken: "{\"tiles\": [\"x/{z}/{x}/{y}.png\"], \"maxzoom\": ",
                                       good: { _ in Data("{\"tiles\": [\"x/{z}/{x}/{y}.png\"], \"maxzoom\": 3}".utf8) },
                                       document: document)
        let source = "{type: tilejson, url: \"{base}/tiles.json\"}"
        Self.expectFailure({ try fixture.style(source, remote: fixture.environment()) }, saying: "not a JSON document")
        Self.expectFailure({ try fixture.style(source, remote: fixture.environment(offline: true)) },
                           saying: "not in the disk cache (offline)")
        document.fix()
        let style = try fixture.style(source, remote: fixture.environment())
        #expect(style.layers[0].source.info.nativeZoom == 0...3)
        #expect(fixture.server.count("/tiles.json") == 2, "the broken answer was not kept")
        // The good one is.
        let offline = try fixture.style(source, remote: fixture.environment(offline: true))
        #expect(offline.layers[0].source.info.nativeZoom == 0...3)
    }

    @Test func capabilitiesThatDoNotReadAreNotCached() throws {
        let document = Document()
        let fixture = try Self.fixture(path: "/caps.xml", broken: "<Capabilities><Contents>",
                                       good: { host in (try? WMTSRemoteRulesTests.capabilities(host: host)) ?? Data() },
                                       document: document)
        let source = "{type: wmts, url: \"{base}/caps.xml\", layer: naturalearth}"
        Self.expectFailure({ try fixture.style(source, remote: fixture.environment()) }, saying: "malformed XML")
        Self.expectFailure({ try fixture.style(source, remote: fixture.environment(offline: true)) },
                           saying: "not in the disk cache (offline)")
        document.fix()
        _ = try fixture.style(source, remote: fixture.environment())
        #expect(fixture.server.count("/caps.xml") == 2, "the broken answer was not kept")
        _ = try fixture.style(source, remote: fixture.environment(offline: true))
    }
}

/// TileJSON numbers that are not whole, or out of range, are named with the key and the range.
@Suite struct TileJSONNumberTests {
    @Test(arguments: [
        ("\"maxzoom\": 1e308", "'maxzoom' is 1e+308: expected a whole number within 0…30"),
        ("\"minzoom\": -1", "'minzoom' is -1: expected a whole number within 0…30"),
        ("\"maxzoom\": 2.5", "'maxzoom' is 2.5: expected a whole number within 0…30"),
        ("\"tileSize\": 512.5", "'tileSize' is 512.5: expected 256 or 512"),
        ("\"tile_size\": 1e9", "'tile_size' is 1000000000: expected 256 or 512"),
    ])
    func numbersNameTheirKeyAndRange(field: String, message: String) {
        let text = "{\"tiles\": [\"https://h/{z}/{x}/{y}.png\"], \(field)}"
        #expect(throws: TileJSONError(message)) { try TileJSONDocument.parse(Data(text.utf8)) }
    }

    @Test func wholeNumbersWrittenAsRealsAreRead() throws {
        let text = "{\"tiles\": [\"https://h/{z}/{x}/{y}.png\"], \"minzoom\": 1.0, \"maxzoom\": 12, \"tileSize\": 512}"
        let document = try TileJSONDocument.parse(Data(text.utf8))
        #expect(document.minzoom == 1 && document.maxzoom == 12 && document.tileSize == 512)
    }
}
