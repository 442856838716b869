import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// WMTS capabilities as MapProxy writes them (scripts/reference/make_wmts_capabilities.py):
/// layers, tile matrix sets and the grids they describe; and the sets that cannot be drawn.
@Suite struct WMTSCapabilitiesTests {
    static func load(_ name: String) throws -> WMTSCapabilities {
        try WMTSCapabilities(xml: try Data(contentsOf: TestPaths.fixture("WMTS/\(name)")))
    }

    /// A document with one tile matrix set holding `matrices` (TileMatrix bodies) in `crs`.
    static func document(crs: String = "EPSG:3857", wellKnown: String? = nil, matrices: [String], layer: String = "") -> Data {
        Data("""
            <Capabilities xmlns="http://www.opengis.net/wmts/1.0" xmlns:ows="http://www.opengis.net/ows/1.1" version="1.0.0">
            <Contents>\(layer)<TileMatrixSet><ows:Identifier>set</ows:Identifier><ows:SupportedCRS>\(crs)</ows:SupportedCRS>
            \(wellKnown.map { "<WellKnownScaleSet>\($0)</WellKnownScaleSet>" } ?? "")
            \(matrices.map { "<TileMatrix>\($0)</TileMatrix>" }.joined())
            </TileMatrixSet></Contents></Capabilities>
            """.utf8)
    }

    static func matrix(_ id: String, scale: Double, corner: String = "-20037508.342789244 20037508.342789244",
                       tile: Int = 256, size: Int = 1) -> String {
        "<ows:Identifier>\(id)</ows:Identifier><ScaleDenominator>\(scale)</ScaleDenominator>"
            + "<TopLeftCorner>\(corner)</TopLeftCorner><TileWidth>\(tile)</TileWidth><TileHeight>\(tile)</TileHeight>"
            + "<MatrixWidth>\(size)</MatrixWidth><MatrixHeight>\(size)</MatrixHeight>"
    }

    @Test(arguments: ["capabilities-kvp.xml", "capabilities-rest.xml"])
    func mapProxysLayersAndSetsAreRead(_ name: String) throws {
        let capabilities = try Self.load(name)
        #expect(capabilities.layers.map(\.identifier) == ["naturalearth", "custom"])
        let layer = try #require(capabilities.layer("naturalearth"))
        #expect(layer.formats == ["image/png"])
        #expect(layer.styles == ["default"])
        #expect(layer.tileMatrixSetLinks.map(\.tileMatrixSet) == ["webmercator"])
        #expect(capabilities.tileMatrixSets.map(\.identifier) == ["webmercator", "custom"])
        if name.contains("rest") {
            #expect(layer.resourceURLs.first?.template
                    == "http://localhost/wmts/naturalearth/{TileMatrixSet}/{TileMatrix}/{TileCol}/{TileRow}.png")
            #expect(layer.resourceURLs.first?.resourceType == "tile")
        }
    }

    @Test func theWebMercatorSetIsTheStandardGrid() throws {
        let set = try #require(try Self.load("capabilities-kvp.xml").tileMatrixSet("webmercator"))
        #expect(set.isWebMercator)
        #expect(set.levels.map(\.identifier) == (0...8).map { String(format: "%02d", $0) })
        let matrix = try set.tileMatrix()
        let standard = TileMatrix.webMercator()
        #expect(matrix.levels.count == 9)
        #expect(matrix.isQuadtree)
        #expect(matrix.originX == standard.originX && matrix.originY == standard.originY)
        for level in matrix.levelRange {
            #expect(abs(matrix.levels[level].resolution / standard.levels[level].resolution - 1) < 1e-12)
            #expect(matrix.levels[level].matrixWidth == 1 << level)
        }
    }

    /// The custom set describes the same grid as the custom ArcGIS cache's conf.xml.
    @Test func theCustomSetIsTheArcGISFixturesGrid() throws {
        let set = try #require(try Self.load("capabilities-rest.xml").tileMatrixSet("custom"))
        let matrix = try set.tileMatrix()
        let conf = TestPaths.fixture("ArcGIS/custom/Layers/conf.xml")
        let arcgis = try ArcGISCacheInfo(xml: try Data(contentsOf: conf), path: conf.path).matrix(path: conf.path)
        #expect(matrix.tileWidth == 512 && matrix.tileHeight == 512)
        #expect(matrix.originX == -4_000_000 && matrix.originY == 11_000_000)
        #expect(matrix.levels.map(\.matrixWidth) == [2, 4, 6, 9, 14])
        for level in matrix.levelRange {
            #expect(abs(matrix.levels[level].resolution - arcgis.levels[level].resolution) < 1e-6)
        }
        for resolution in [12000.0, 3000, 2100, 1800, 1000] {
            #expect(matrix.level(forResolution: resolution) == arcgis.level(forResolution: resolution), "\(resolution)")
        }
    }

    @Test(arguments: ["urn:ogc:def:crs:EPSG::3857", "EPSG:900913", "http://www.opengis.net/def/crs/EPSG/0/3857",
                      "urn:ogc:def:crs:EPSG:6.18.3:3857", "EPSG:102100"])
    func webMercatorSpellingsAreAccepted(_ crs: String) throws {
        let set = try WMTSCapabilities(xml: Self.document(crs: crs, matrices: [Self.matrix("0", scale: 559082264.0287176)]))
        #expect(try set.tileMatrixSets[0].tileMatrix().levels.count == 1)
    }

    @Test func otherCoordinateSystemsAreAClearError() throws {
        let set = try WMTSCapabilities(xml: Self.document(crs: "urn:ogc:def:crs:EPSG::4326",
                                                          matrices: [Self.matrix("0", scale: 279541132.0143589)]))
        let error = #expect(throws: WMTSCapabilitiesError.self) { try set.tileMatrixSets[0].tileMatrix() }
        #expect(error?.reason.contains("urn:ogc:def:crs:EPSG::4326") == true)
        let google = try WMTSCapabilities(xml: Self.document(crs: "urn:ogc:def:crs:OGC:1.3:CRS84",
                                                             wellKnown: "urn:ogc:def:wkss:OGC:1.0:GoogleMapsCompatible",
                                                             matrices: [Self.matrix("0", scale: 559082264.0287176)]))
        #expect(google.tileMatrixSets[0].isWebMercator)
    }

    @Test func matricesAreOrderedCoarsestFirstAndMustShareOriginAndTileSize() throws {
        let unordered = try WMTSCapabilities(xml: Self.document(matrices: [
            Self.matrix("fine", scale: 1000, size: 4), Self.matrix("coarse", scale: 4000, size: 1),
        ]))
        #expect(unordered.tileMatrixSets[0].levels.map(\.identifier) == ["coarse", "fine"])
        #expect(abs(try unordered.tileMatrixSets[0].tileMatrix().levels[0].resolution - 4000 * 0.00028) < 1e-12)
        let origins = try WMTSCapabilities(xml: Self.document(matrices: [
            Self.matrix("a", scale: 4000), Self.matrix("b", scale: 2000, corner: "0 0"),
        ]))
        let origin = #expect(throws: WMTSCapabilitiesError.self) { try origins.tileMatrixSets[0].tileMatrix() }
        #expect(origin?.reason.contains("another top-left corner") == true)
        let sizes = try WMTSCapabilities(xml: Self.document(matrices: [
            Self.matrix("a", scale: 4000), Self.matrix("b", scale: 2000, tile: 512),
        ]))
        #expect(throws: WMTSCapabilitiesError.self) { try sizes.tileMatrixSets[0].tileMatrix() }
    }

    @Test func layerLimitsAndDefaultStyleAreRead() throws {
        let layer = """
            <Layer><ows:Identifier>roads</ows:Identifier><Style><ows:Identifier>plain</ows:Identifier></Style>
            <Style isDefault="true"><ows:Identifier>main</ows:Identifier></Style><Format>image/jpeg</Format>
            <TileMatrixSetLink><TileMatrixSet>set</TileMatrixSet><TileMatrixSetLimits><TileMatrixLimits>
            <TileMatrix>0</TileMatrix><MinTileRow>1</MinTileRow><MaxTileRow>3</MaxTileRow><MinTileCol>2</MinTileCol>
            <MaxTileCol>5</MaxTileCol></TileMatrixLimits></TileMatrixSetLimits></TileMatrixSetLink></Layer>
            """
        let capabilities = try WMTSCapabilities(xml: Self.document(matrices: [Self.matrix("0", scale: 4000, size: 8)], layer: layer))
        let roads = try #require(capabilities.layer("roads"))
        #expect(roads.styles == ["main", "plain"])
        #expect(roads.tileMatrixSetLinks[0].limits["0"] == .init(rows: 1...3, columns: 2...5))
        let inverted = layer.replacingOccurrences(of: "<MaxTileRow>3", with: "<MaxTileRow>0")
        let error = #expect(throws: WMTSCapabilitiesError.self) {
            try WMTSCapabilities(xml: Self.document(matrices: [Self.matrix("0", scale: 4000)], layer: inverted))
        }
        #expect(error?.reason.contains("Layer 'roads'") == true)
    }

    @Test func badDocumentsSayWhy() throws {
        let cases: [(Data, String)] = [
            (Data("<Capabilities><Contents>".utf8), "malformed XML"),
            (Data("<WMS_Capabilities/>".utf8), "not a WMTS <Capabilities>"),
            (Data("<Capabilities/>".utf8), "no <Contents>"),
            (Self.document(matrices: []), "TileMatrixSet 'set': no <TileMatrix>"),
            (Self.document(matrices: [Self.matrix("0", scale: 4000, corner: "1")]), "TileMatrix '0': <TopLeftCorner>: '1' is not two numbers"),
            (Self.document(matrices: [Self.matrix("0", scale: -1)]), "<ScaleDenominator>"),
        ]
        for (data, expected) in cases {
            let error = #expect(throws: WMTSCapabilitiesError.self) { try WMTSCapabilities(xml: data) }
            #expect(error?.reason.contains(expected) == true, "\(error?.reason ?? "no error"), expected \(expected)")
        }
    }
}
