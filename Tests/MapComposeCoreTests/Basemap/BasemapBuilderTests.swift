import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// The builder reads the prepared sources and writes a PMTiles in the Protomaps v4 schema that
/// mapcompose's own reader and decoder read back: land, lakes with their islands as holes,
/// rivers, borders and places at the zooms their `min_zoom` asks.
@Suite struct BasemapBuilderTests {
    static func built(maxZoom: Int = 6) throws -> (TemporaryFolder, PMTilesArchive) {
        let sources = try SampleWorld.sources()
        let output = sources.url.appendingPathComponent("out/basemap.pmtiles")
        try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        let summary = try BasemapBuilder.build(sources: sources.url, output: output, maxZoom: maxZoom) { _ in }
        #expect(summary.tiles > maxZoom)
        let reader = try PMTilesFileReader.open(output.path).get()
        return (sources, try PMTilesArchive.open(reader).get())
    }

    static func tile(_ archive: PMTilesArchive, _ z: Int, _ lon: Double, _ lat: Double) async throws -> VectorTile? {
        let w = TilingFeature.world(lon: lon, lat: lat), n = Double(1 << z)
        guard let data = try await archive.tile(z: z, x: Int(w.x * n), y: Int(w.y * n)).get() else { return nil }
        return try VectorTile(data)
    }

    @Test func theArchiveHoldsEveryLayerAtTheRightZooms() async throws {
        let (_, archive) = try Self.built()
        #expect(archive.header.minZoom == 0 && archive.header.maxZoom == 6)
        #expect(archive.header.tileType == .mvt && archive.header.tileCompression == .gzip)
        let metadata = try JSONSerialization.jsonObject(with: archive.metadataJSON) as! [String: Any]
        let layers = (metadata["vector_layers"] as! [[String: Any]]).map { $0["id"] as! String }
        #expect(layers == ["earth", "water", "boundaries", "places"])
        #expect((metadata["attribution"] as! String).contains("GeoNames"))

        let world = try #require(try await Self.tile(archive, 0, 0, 0))
        // Rivers start at zoom 4, the Han-script place at its min_zoom 3: no places at zoom 0.
        #expect(Set(world.layers.map(\.name)) == ["earth", "water", "boundaries"])
        let water0 = try #require(world.layer("water"))
        #expect(try water0.features.map { try water0.properties(of: $0)["kind"] } == [.string("lake")])

        let z4 = try #require(try await Self.tile(archive, 4, 12, 2))
        let places = try #require(z4.layer("places"))
        let names = try places.features.map { try places.properties(of: $0)["name"] }
        #expect(names == [.string("東京")])

        // The village (min_zoom 12, past the deepest level) is in the deepest tiles.
        let deep = try #require(try await Self.tile(archive, 6, 18, 8))
        let deepPlaces = try #require(deep.layer("places"))
        #expect(try deepPlaces.features.map { try deepPlaces.properties(of: $0)["name:en"] } == [.string("Deepville")])
        let riverTile = try #require(try await Self.tile(archive, 6, 12, 7))
        let rivers = try #require(riverTile.layer("water"))
        #expect(try rivers.features.filter { $0.type == .lineString }.map { try rivers.properties(of: $0)["kind"] } == [.string("river")])
        let borders = try #require(try await Self.tile(archive, 4, 17, 5)?.layer("boundaries"))
        #expect(try Set(borders.features.map { try borders.properties(of: $0)["kind"]?.description }) == ["country", "region"])
    }

    @Test func theLakeHasItsIsletAsAHole() async throws {
        let (_, archive) = try Self.built()
        let tile = try #require(try await Self.tile(archive, 6, 15, 5))
        let water = try #require(tile.layer("water"))
        let lakes = try water.features.filter { $0.type == .polygon }.map { try water.geometry(of: $0) }
        #expect(lakes.count == 1)
        let rings = lakes[0].polygons.flatMap { $0 }
        // Exterior and hole, in opposite windings.
        #expect(lakes[0].polygons.count == 1 && rings.count == 2)
        let areas = rings.map { ring -> Double in
            var sum = 0.0
            for i in ring.indices {
                let a = ring[i], b = ring[(i + 1) % ring.count]
                sum += Double(a.x) * Double(b.y) - Double(b.x) * Double(a.y)
            }
            return sum / 2
        }
        #expect(areas[0] * areas[1] < 0 && abs(areas[0]) > abs(areas[1]))
    }

    @Test func openOceanHasNoTileAndInlandHasLand() async throws {
        let (_, archive) = try Self.built()
        #expect(try await Self.tile(archive, 6, -60, -30) == nil)
        let inland = try #require(try await Self.tile(archive, 6, 11.5, 8.5))
        let earth = try #require(inland.layer("earth"))
        #expect(earth.features.count == 1)
    }

    @Test func brokenSourcesNameTheFile() throws {
        let sources = try SampleWorld.sources()
        try Data("1 10 5 0 10 0 999 0\n".utf8).write(to: sources.url.appendingPathComponent("riversmeta_f.dat"))
        #expect {
            _ = try BasemapBuilder.build(sources: sources.url, output: sources.url.appendingPathComponent("o.pmtiles")) { _ in }
        } throws: { error in
            "\(error)".contains("riversmeta_f.dat line 1")
        }
        try FileManager.default.removeItem(at: sources.url.appendingPathComponent("places.geojson"))
        #expect(throws: BasemapBuildError.self) {
            _ = try BasemapBuilder.build(sources: sources.url, output: sources.url.appendingPathComponent("o.pmtiles")) { _ in }
        }
    }
}
