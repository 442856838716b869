import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// `type: arcgis` in a style: its keys and path checked at load time, its errors against the
/// style's key path, and in a render its extent limiting the tiles read and its absent tiles
/// filled by the layer's fallback.
@Suite struct ArcGISLayerTests {
    /// Problems of a style with one arcgis layer whose source is `source` (YAML), or [] when it loads.
    static func problems(_ source: String, in folder: TemporaryFolder) throws -> [String] {
        let file = try folder.write("""
            layers:
              - id: cache
                source: \(source)
            """, to: "style.yaml")
        do {
            _ = try StyleLoader.load(file: file)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func aCacheFolderLoadsRelativeToTheStyle() throws {
        let folder = try TemporaryFolder()
        try ArcGISCacheFixtures.writeCache(in: folder, name: "cache/Layers", storage: .compactV2, tiles: [])
        #expect(try Self.problems("{type: arcgis, path: cache}", in: folder) == [])
        #expect(try Self.problems("{type: arcgis, path: cache/Layers}", in: folder) == [])
    }

    @Test func badKeysAndPathsAreStyleProblems() throws {
        let folder = try TemporaryFolder()
        try ArcGISCacheFixtures.writeCache(in: folder, name: "cache/Layers", storage: .exploded,
                                           conf: ArcGISCacheFixtures.confXML(wkid: 4326, latestWKID: 4326), tiles: [])
        let unknown = try Self.problems("{type: arcgis, path: cache, tile-size: 512}", in: folder)
        #expect(unknown.count == 1 && unknown[0].contains("tile-size"))
        let noPath = try Self.problems("{type: arcgis}", in: folder)
        #expect(noPath.count == 1 && noPath[0].contains("path"))
        let missing = try Self.problems("{type: arcgis, path: nowhere}", in: folder)
        #expect(missing.count == 1 && missing[0].contains("no such folder 'nowhere'"))
        let wkid = try Self.problems("{type: arcgis, path: cache}", in: folder)
        #expect(wkid.count == 1)
        #expect(wkid.first?.contains("layers[0].source.path") == true)
        #expect(wkid.first?.contains("cache/Layers/conf.xml") == true)
        #expect(wkid.first?.contains("WKID 4326") == true)
    }

    @Test func absentTilesFallBackAndNothingOutsideTheExtentIsRead() async throws {
        // Level 1 complete in red; level 2 holds tile (1, 1) in blue, the others are absent.
        let folder = try TemporaryFolder()
        let red = RGBA(r: 220, g: 0, b: 0), blue = RGBA(r: 0, g: 0, b: 220)
        var tiles = [ArcGISCacheFixtures.Tile(level: 2, row: 1, column: 1, data: try TileFixtures.solidPNG(blue))]
        for row in 0..<2 {
            for column in 0..<2 {
                tiles.append(.init(level: 1, row: row, column: column, data: try TileFixtures.solidPNG(red)))
            }
        }
        // The extent: the world's north-west quarter (tiles 0…1 of level 2 in each direction).
        let shift = WebMercator.originShift
        try ArcGISCacheFixtures.writeCache(in: folder, name: "cache", storage: .compactV2,
                                           extent: MetersRect(minX: -shift, minY: 0, maxX: 0, maxY: shift), tiles: tiles)
        let style = try StyleLoader.load(file: try folder.write("""
            background: "#00ff00"
            layers:
              - id: cache
                fallback: {parents: 2}
                source: {type: arcgis, path: cache}
            """, to: "style.yaml"))
        let viewport = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 2, width: 1024, height: 1024)
        let result = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport)
        let layer = result.report.layers[0]
        #expect(layer.level == 2)
        #expect(layer.tilesDrawn == 1)
        #expect(layer.tilesFromParents == 3)
        #expect(layer.tilesOutsideBounds == 12)
        #expect(result.report.diagnostics.allSatisfy { !$0.isTileProblem })
        #expect(result.image.rgba(x: 384, y: 384) == blue)
        #expect(result.image.rgba(x: 128, y: 128) == red)
        #expect(result.image.rgba(x: 768, y: 768) == RGBA(r: 0, g: 255, b: 0))
    }

    @Test func aDamagedBundleIsATileProblemInTheReport() async throws {
        let folder = try TemporaryFolder()
        let layer = try ArcGISCacheFixtures.writeCache(in: folder, name: "cache", storage: .compactV2, tiles: [
            .init(level: 0, row: 0, column: 0, data: try TileFixtures.solidPNG(RGBA(r: 1, g: 2, b: 3))),
        ])
        let bundle = layer.appendingPathComponent("_alllayers/L00/R0000C0000.bundle")
        try Data(try Data(contentsOf: bundle).dropLast(100)).write(to: bundle)
        let style = try StyleLoader.load(file: try folder.write("""
            layers:
              - id: cache
                source: {type: arcgis, path: cache}
            """, to: "style.yaml"))
        let viewport = try Viewport(center: LonLat(lon: 0, lat: 0), zoom: 0, width: 256, height: 256)
        let result = try await MapRenderer(style: style, options: RenderOptions(attribution: false)).render(viewport)
        let problems = result.report.problems
        #expect(problems.count == 1)
        #expect(problems.first?.detail.contains("R0000C0000.bundle is truncated") == true)
    }
}
