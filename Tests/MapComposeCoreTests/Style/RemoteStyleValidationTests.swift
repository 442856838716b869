import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// The style keys of remote sources: every wrong value is reported with its line and key path,
/// before anything is requested.
@Suite struct RemoteStyleValidationTests {
    private func problems(_ yaml: String) throws -> [String] {
        let folder = try TemporaryFolder()
        let file = try folder.write(yaml, to: "style.yaml")
        do {
            _ = try StyleLoader.load(file: file, remote: RemoteEnvironment(client: TileHTTPClient(environment: [:]), cache: nil))
            return []
        } catch {
            return error.problems.map { $0.description.replacingOccurrences(of: file.relativePath, with: "style.yaml") }
        }
    }

    @Test func wrongRemoteXYZKeysAreEachReported() throws {
        let found = try problems("""
            layers:
              - id: a
                source:
                  type: xyz
                  url: "ftp://tiles.example/{z}/{x}/{y}.png"
              - id: b
                source:
                  type: xyz
                  url: "https://{s}.tiles.example/{z}/{x}/{y}.png"
                  timeout: soon
                  retries: 99
                  concurrency: 0
                  cache: {ttl: forever, max-size: huge, colour: red, id: ../up}
              - id: c
                source: {type: xyz, url: "https://t.example/{z}/{x}/{y}.png", path: "t/{z}/{x}/{y}.png"}
            """)
        #expect(found == [
            "style.yaml:5: layers[0].source.url: expected an http or https URL template, got 'ftp://tiles.example/{z}/{x}/{y}.png'",
            "style.yaml:9: layers[1].source.url: uses {s} but the source lists no 'subdomains'",
            "style.yaml:10: layers[1].source.timeout: expected a duration such as 30s, 15m, 12h or 7d, got 'soon'",
            "style.yaml:11: layers[1].source.retries: must be between 0 and 10, got 99",
            "style.yaml:12: layers[1].source.concurrency: must be between 1 and 64, got 0",
            "style.yaml:13: layers[1].source.cache.colour: unknown key (expected one of: id, ttl, negative-ttl, max-size)",
            "style.yaml:13: layers[1].source.cache.id: '../up' cannot name a folder (use letters, digits, '-', '_' and '.', not starting with '.')",
            "style.yaml:13: layers[1].source.cache.ttl: expected a duration such as 30s, 15m, 12h or 7d, got 'forever'",
            "style.yaml:13: layers[1].source.cache.max-size: expected a size such as 512MB or 2GB, got 'huge'",
            "style.yaml:15: layers[2].source: give either 'path' (a folder of tiles) or 'url' (a tile server), not both",
        ])
    }

    @Test func wrongWMSKeysAreEachReported() throws {
        let found = try problems("""
            layers:
              - id: w
                source:
                  type: wms
                  url: "http://127.0.0.1/wms"
                  version: "1.2.0"
                  mode: streaming
                  crs: EPSG:4326
                  format: text/html
                  metatile: 40
                  params: [MAP]
            """)
        #expect(found == [
            "style.yaml:4: layers[0].source.layers: missing required key",
            "style.yaml:6: layers[0].source.version: unknown WMS version '1.2.0' (expected 1.1.1 or 1.3.0)",
            "style.yaml:7: layers[0].source.mode: unknown mode 'streaming' (expected tiled or single)",
            "style.yaml:8: layers[0].source.crs: 'EPSG:4326' is not Web Mercator; maps are drawn in EPSG:3857 and pictures are not reprojected (use one of EPSG:102100, EPSG:102113, EPSG:3785, EPSG:3857, EPSG:900913)",
            "style.yaml:9: layers[0].source.format: expected an image type such as image/png or image/jpeg, got 'text/html'",
            "style.yaml:10: layers[0].source.metatile: must be between 1 and 16, got 40",
            "style.yaml:11: layers[0].source.params: expected a mapping of names to values",
        ])
    }

    @Test func theShippedRemoteStylesValidate() throws {
        for name in ["osm.yaml", "wms-mapserver.yaml"] {
            let style = try StyleLoader.load(file: TestPaths.repositoryRoot.appendingPathComponent("Styles/\(name)"),
                                             remote: RemoteEnvironment(client: TileHTTPClient(environment: [:]), cache: nil))
            #expect(style.layers.count == 1)
        }
    }
}
