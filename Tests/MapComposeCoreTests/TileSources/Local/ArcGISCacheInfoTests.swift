import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// conf.xml and conf.cdi as ArcGIS writes them: every key read, the grid built from them, and
/// each unusable description rejected with the file and the reason.
@Suite struct ArcGISCacheInfoTests {
    static func info(_ xml: String) throws(ArcGISCacheError) -> ArcGISCacheInfo {
        try ArcGISCacheInfo(xml: Data(xml.utf8), path: "/cache/conf.xml")
    }

    /// The reason parsing fails, or nil when it does not.
    static func failure(_ xml: String) -> String? {
        do {
            _ = try info(xml)
            return nil
        } catch {
            #expect(error.path == "/cache/conf.xml")
            return error.reason
        }
    }

    @Test func readsTheCommittedCustomGridCache() throws {
        let url = TestPaths.fixture("ArcGIS/custom/Layers/conf.xml")
        let info = try ArcGISCacheInfo(xml: try Data(contentsOf: url), path: url.path)
        #expect(info.wkid == 102100)
        #expect(info.latestWKID == 3857)
        #expect(info.originX == -4_000_000 && info.originY == 11_000_000)
        #expect(info.tileWidth == 512 && info.tileHeight == 512)
        #expect(info.dpi == 96)
        #expect(info.levels.map(\.resolution) == [10000, 6000, 3700, 2300, 1400])
        #expect(info.levels.map(\.levelID) == [0, 1, 2, 3, 4])
        #expect(info.tileFormat == .png)
        #expect(info.storage == .compactV2)
        #expect(info.packetSize == 128)
        let matrix = try info.matrix(path: url.path)
        #expect(!matrix.isQuadtree)
        #expect(matrix.tileWidth == 512)
        #expect(matrix.tileExtent(level: 3, column: 1, row: 2)
                == MetersRect(minX: -4_000_000 + 512 * 2300, minY: 11_000_000 - 3 * 512 * 2300,
                              maxX: -4_000_000 + 2 * 512 * 2300, maxY: 11_000_000 - 2 * 512 * 2300))
        // Level 3's matrix reaches from the origin to the world's east and south edges.
        #expect(matrix.levels[3].matrixWidth == Int((WebMercator.originShift + 4_000_000) / (512 * 2300)) + 1)
    }

    @Test func theStandardLODSetIsTheWebMercatorGrid() throws {
        let matrix = try Self.info(ArcGISCacheFixtures.confXML()).matrix(path: "conf.xml")
        let standard = TileMatrix.webMercator()
        #expect(matrix.isQuadtree)
        for level in matrix.levelRange {
            #expect(matrix.levels[level].matrixWidth == 1 << level)
            #expect(matrix.levels[level].matrixHeight == 1 << level)
            #expect(abs(matrix.levels[level].resolution - standard.levels[level].resolution) < 1e-9)
            #expect(matrix.wrapsAroundWorld(level: level))
        }
    }

    @Test func resolutionComesFromScaleWhenOnlyScaleIsGiven() throws {
        let info = try Self.info(ArcGISCacheFixtures.confXML(lods: [(0, 1000), (1, 500)], dpi: 90, scaleOnly: true))
        let scales: [Double?] = [1000.0 * 90 * 39.37, 500.0 * 90 * 39.37]
        #expect(info.levels.map(\.scale) == scales)
        for (level, expected) in zip(info.levels, [1000.0, 500.0]) {
            #expect(abs(level.resolution - expected) < 1e-9)
            #expect(level.resolution == level.scale! / (90 * 39.37))
        }
    }

    @Test(arguments: ArcGISTileFormat.allCases)
    func everyTileFormatIsRead(_ format: ArcGISTileFormat) throws {
        #expect(try Self.info(ArcGISCacheFixtures.confXML(format: format.rawValue)).tileFormat == format)
    }

    @Test(arguments: ArcGISStorageFormat.allCases)
    func everyStorageFormatIsRead(_ storage: ArcGISStorageFormat) throws {
        #expect(try Self.info(ArcGISCacheFixtures.confXML(storage: storage.rawValue)).storage == storage)
    }

    @Test(arguments: [102100, 102113, 3857, 900913])
    func webMercatorWKIDsAreAccepted(_ wkid: Int) throws {
        #expect(try Self.info(ArcGISCacheFixtures.confXML(wkid: wkid, latestWKID: nil)).wkid == wkid)
        #expect(try Self.info(ArcGISCacheFixtures.confXML(wkid: nil, latestWKID: wkid)).latestWKID == wkid)
    }

    @Test func otherCoordinateSystemsAreAnErrorNamingTheWKID() throws {
        let reason = try #require(Self.failure(ArcGISCacheFixtures.confXML(wkid: 4326, latestWKID: nil)))
        #expect(reason.contains("WKID 4326"))
        #expect(reason.contains("Web Mercator"))
        let both = try #require(Self.failure(ArcGISCacheFixtures.confXML(wkid: 27700, latestWKID: 27700)))
        #expect(both.contains("27700"))
        #expect(Self.failure(ArcGISCacheFixtures.confXML(wkid: nil, latestWKID: nil))?.contains("no WKID") == true)
    }

    @Test func unsupportedStorageAndFormatsAreNamed() throws {
        let storage = try #require(Self.failure(ArcGISCacheFixtures.confXML(storage: "esriMapCacheStorageModeFancy")))
        #expect(storage.contains("unsupported storage format 'esriMapCacheStorageModeFancy'"))
        let format = try #require(Self.failure(ArcGISCacheFixtures.confXML(format: "WEBP")))
        #expect(format.contains("unsupported tile format 'WEBP'"))
        let packets = try #require(Self.failure(ArcGISCacheFixtures.confXML(storage: ArcGISStorageFormat.compact.rawValue,
                                                                            packetSize: 64)))
        #expect(packets.contains("PacketSize 64"))
    }

    @Test func malformedXMLSaysWhere() throws {
        let reason = try #require(Self.failure("<CacheInfo><TileCacheInfo>\n<TileCols>256</TileRows>"))
        #expect(reason.contains("malformed XML at line 2"))
        #expect(Self.failure("")?.contains("malformed XML") == true)
        #expect(Self.failure("<Other/>")?.contains("not <CacheInfo>") == true)
    }

    @Test func badValuesNameTheirElement() throws {
        let valid = ArcGISCacheFixtures.confXML()
        #expect(Self.failure(valid.replacingOccurrences(of: "<TileCols>256", with: "<TileCols>lots"))?
            .contains("<TileCols>: 'lots' is not a whole number") == true)
        #expect(Self.failure(valid.replacingOccurrences(of: "<TileCols>256", with: "<TileCols>0"))?
            .contains("<TileCols>") == true)
        let noLODs = ArcGISCacheFixtures.confXML(lods: [])
        #expect(Self.failure(noLODs)?.contains("lists no <LODInfo>") == true)
        let twice = ArcGISCacheFixtures.confXML(lods: [(0, 100), (0, 50)])
        #expect(Self.failure(twice)?.contains("LevelID 0 is listed twice") == true)
        let same = ArcGISCacheFixtures.confXML(lods: [(0, 100), (1, 100)])
        #expect(Self.failure(same)?.contains("same resolution") == true)
        let negative = ArcGISCacheFixtures.confXML(lods: [(0, -5)])
        #expect(Self.failure(negative)?.contains("not a positive number") == true)
        #expect(Self.failure(valid.replacingOccurrences(of: "X>", with: "Z>"))?.contains("TileOrigin/X") == true)
    }

    @Test func anOriginOutsideTheWorldIsAnError() throws {
        let info = try Self.info(ArcGISCacheFixtures.confXML(origin: (2.1e7, 1e6)))
        #expect(throws: ArcGISCacheError.self) { try info.matrix(path: "conf.xml") }
    }

    @Test func levelsAreOrderedByResolutionWhateverTheirIDs() throws {
        let info = try Self.info(ArcGISCacheFixtures.confXML(lods: [(7, 50), (3, 200), (5, 100)]))
        #expect(info.levels.map(\.levelID) == [3, 5, 7])
    }

    @Test func confCDIGivesTheBoundsInDegrees() throws {
        let rect = MetersRect(minX: -556597.5, minY: 5160979.4, maxX: 1669792.4, maxY: 6800125.5)
        let extent = try ArcGISCacheExtent(xml: Data(ArcGISCacheFixtures.confCDI(rect).utf8), path: "conf.cdi")
        #expect(extent.rect == rect)
        let bounds = try #require(extent.bounds)
        #expect(abs(bounds.west + 5) < 1e-6 && abs(bounds.east - 15) < 1e-6)
        #expect(abs(bounds.south - 42) < 1e-6 && abs(bounds.north - 52) < 1e-6)
        #expect(throws: ArcGISCacheError.self) {
            try ArcGISCacheExtent(xml: Data("<EnvelopeN><XMin>1</XMin></EnvelopeN>".utf8), path: "conf.cdi")
        }
        #expect(throws: ArcGISCacheError.self) {
            try ArcGISCacheExtent(xml: Data(ArcGISCacheFixtures.confCDI(MetersRect(minX: 5, minY: 0, maxX: 1, maxY: 1)).utf8),
                                  path: "conf.cdi")
        }
    }
}

extension ArcGISCacheInfoTests {
    @Test func textThatIsNotUTF8IsAnErrorNotACrash() throws {
        var bytes = Array(ArcGISCacheFixtures.confXML().utf8)
        let at = bytes.firstIndex(of: UInt8(ascii: "W"))!
        bytes[at] = 0xCB
        do {
            _ = try ArcGISCacheInfo(xml: Data(bytes), path: "/cache/conf.xml")
            Issue.record("no error")
        } catch {
            #expect(error.reason.contains("byte \(at) is not UTF-8"))
        }
    }
}

extension ArcGISCacheInfoTests {
    @Test(arguments: ["&foo;", "&é;", "&\u{10FFFF}x;", "&qu t;", "&#0;", "&#xFFFFFFF;", "&amp", "&;"])
    func entityReferencesAreErrorsOrText(_ entity: String) throws {
        let xml = ArcGISCacheFixtures.confXML().replacingOccurrences(of: "<TileCols>", with: "<Note>\(entity)</Note><TileCols>")
        if let reason = Self.failure(xml) {
            #expect(reason.hasPrefix("malformed XML at line "), "\(entity): \(reason)")
        } else {
            // Taken as text: the rest of the document reads as without the note.
            #expect(try Self.info(xml).tileWidth == 256, "\(entity)")
        }
    }
}
