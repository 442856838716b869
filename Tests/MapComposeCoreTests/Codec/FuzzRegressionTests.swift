import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Every input in `Tests/Fixtures/FuzzRegressions/<target>/` once crashed (or misbehaved in) the
/// entry point its fuzz target drives; each must now give a value or an error with a message.
@Suite struct FuzzRegressionTests {
    static let folder = TestPaths.fixture("FuzzRegressions")
    static let targets = ["style", "tile-decoder", "geojson", "mbtiles", "arcgis-conf"]

    /// `target/file` for every regression input.
    static func inputs() -> [String] {
        targets.flatMap { target in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(target).path)) ?? [])
                .sorted().map { "\(target)/\($0)" }
        }
    }

    @Test func everyTargetHasRegressionInputs() {
        let inputs = Self.inputs()
        for target in Self.targets {
            #expect(inputs.contains { $0.hasPrefix("\(target)/") }, "no regression input for \(target)")
        }
    }

    /// Runs one input through its target's entry point; returns the error text, or nil on success.
    static func run(_ name: String) async throws -> String? {
        let url = folder.appendingPathComponent(name)
        let data = try Data(contentsOf: url)
        switch name.split(separator: "/").first {
        case "style":
            let scratch = try TemporaryFolder()
            do {
                _ = try StyleLoader.load(text: String(decoding: data, as: UTF8.self),
                                         origin: .file(scratch.url.appendingPathComponent("style.yaml")))
                return nil
            } catch {
                return error.description
            }
        case "tile-decoder":
            do {
                let image = try TileDecoder.decode(data)
                _ = image.rgba(x: image.width - 1, y: image.height - 1)
                return nil
            } catch {
                return error.description
            }
        case "geojson":
            do {
                _ = try GeoJSONTileSource(spec: GeoJSONSourceSpec(data: data, path: name))
                return nil
            } catch {
                return error.description
            }
        case "arcgis-conf":
            // As FuzzArcGISConf: the bytes as conf.xml (with its grid), then as conf.cdi.
            var messages: [String] = []
            do {
                _ = try ArcGISCacheInfo(xml: data, path: name).matrix(path: name)
            } catch {
                messages.append(error.description)
            }
            do {
                _ = try ArcGISCacheExtent(xml: data, path: name).bounds
            } catch {
                messages.append(error.description)
            }
            return messages.isEmpty ? nil : messages.joined(separator: "; ")
        default:
            let scratch = try TemporaryFolder()
            let copy = try scratch.write(data, to: "input.mbtiles")
            do {
                let source = try MBTilesSource(spec: MBTilesSourceSpec(file: copy))
                _ = await source.fetch(TileCoord(z: source.info.nativeZoom.lowerBound, x: 0, y: 0), pixelRatio: 1)
                return nil
            } catch {
                return error.description
            }
        }
    }

    @Test(arguments: inputs())
    func inputGivesAValueOrAClearError(_ name: String) async throws {
        if let message = try await Self.run(name) {
            #expect(!message.isEmpty)
            #expect(!message.contains("NSCocoaErrorDomain") && !message.contains("could not be completed"), "\(message)")
        }
    }
}
