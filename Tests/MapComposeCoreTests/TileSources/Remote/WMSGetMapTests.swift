import Foundation
import Testing
@testable import MapComposeCore

/// GetMap requests as sent: parameters per version, BBOX text and axis order, metatiles.
@Suite struct WMSGetMapTests {
    private func parameters(_ url: EnvironmentReference) -> [String: String] {
        let query = url.text.split(separator: "?", maxSplits: 1).last.map(String.init) ?? ""
        var result: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            result[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return result
    }

    @Test func versionsNameTheirCoordinateSystemParameterAndExceptionFormat() {
        let box = MetersRect(minX: -1000.5, minY: 2000.25, maxX: 3000, maxY: 4000.125)
        let old = parameters(WMSGetMap(url: "http://127.0.0.1/wms", version: .v1_1_1, layers: "a,b", format: "image/jpeg",
                                       transparent: false, bgcolor: "0xA9CBE6").url(for: box, width: 256, height: 128))
        #expect(old["SRS"] == "EPSG:3857" && old["CRS"] == nil && old["VERSION"] == "1.1.1")
        #expect(old["BBOX"] == "-1000.5,2000.25,3000,4000.125")
        #expect(old["EXCEPTIONS"] == "application/vnd.ogc.se_xml" && old["TRANSPARENT"] == "FALSE" && old["BGCOLOR"] == "0xA9CBE6")
        #expect(old["WIDTH"] == "256" && old["HEIGHT"] == "128" && old["LAYERS"] == "a,b" && old["STYLES"] == "" && old["FORMAT"] == "image/jpeg")
        let new = parameters(WMSGetMap(url: "http://127.0.0.1/cgi-bin/mapserv?MAP=/srv/a.map", layers: "a",
                                       params: ["DPI": "96", "crs": "ignored"]).url(for: box, width: 1, height: 1))
        #expect(new["CRS"] == "EPSG:3857" && new["SRS"] == nil && new["EXCEPTIONS"] == "XML")
        #expect(new["MAP"] == "/srv/a.map" && new["DPI"] == "96" && new["crs"] == nil, "extra parameters never replace standard ones")
    }

    @Test func onlyGeographicSystemsSwapAxesAndOnlyIn130() {
        let box = MetersRect(minX: -10, minY: 40, maxX: 5, maxY: 55)
        #expect(WMSGetMap(url: "u", version: .v1_3_0, layers: "l", crs: WMSCoordinateSystem("EPSG:4326")).bboxText(box) == "40,-10,55,5")
        #expect(WMSGetMap(url: "u", version: .v1_1_1, layers: "l", crs: WMSCoordinateSystem("EPSG:4326")).bboxText(box) == "-10,40,5,55")
        #expect(WMSGetMap(url: "u", version: .v1_3_0, layers: "l", crs: WMSCoordinateSystem("CRS:84")).bboxText(box) == "-10,40,5,55")
        #expect(WMSGetMap(url: "u", version: .v1_3_0, layers: "l").bboxText(box) == "-10,40,5,55", "EPSG:3857 is never swapped")
    }

    /// At zoom 18 a pixel is 0.6 m: a Float BBOX (2 m steps at 16.8 million metres) or one
    /// truncated to whole metres puts the picture pixels away from the tile; ours reads back exact.
    @Test func aFloatOrTruncatedBBoxMisplacesAZoom18TileAndOursDoesNot() throws {
        let grid = TileMatrix.webMercator()
        let coord = try #require(grid.covering(MetersRect(minX: 16_828_376.3, minY: -4_010_000, maxX: 16_828_376.4, maxY: -4_009_999.9),
                                               level: 18)).tiles.first
        let tile = try #require(coord)
        let box = grid.tileExtent(level: 18, column: tile.x, row: tile.y)
        let resolution = grid.levels[18].resolution
        func shift(_ text: String) -> Double {
            let values = text.split(separator: ",").compactMap { Double(String($0)) }
            return zip(values, [box.minX, box.minY, box.maxX, box.maxY]).map { abs($0 - $1) / resolution }.max() ?? .infinity
        }
        let ours = WMSGetMap(url: "u", layers: "l").bboxText(box)
        #expect(shift(ours) == 0)
        let float = [box.minX, box.minY, box.maxX, box.maxY].map { "\(Float($0))" }.joined(separator: ",")
        let truncated = [box.minX, box.minY, box.maxX, box.maxY].map { String(format: "%.0f", $0.rounded(.towardZero)) }.joined(separator: ",")
        #expect(shift(float) > 0.5, "Float: \(float)")
        #expect(shift(truncated) > 0.5, "truncated: \(truncated)")
    }

    @Test func metatilesCoverTheirTilesWithABufferAndStopAtTheGridEdge() {
        let grid = TileMatrix.webMercator()
        let meta = Metatile(containing: TileCoord(z: 3, x: 5, y: 7), size: 4, buffer: 10, matrix: grid)
        #expect(meta.origin == TileCoord(z: 3, x: 4, y: 4) && meta.columns == 4 && meta.rows == 4)
        #expect(meta.pixelWidth == 4 * 256 + 20 && meta.pixelHeight == 4 * 256 + 20)
        #expect(meta.offset(of: TileCoord(z: 3, x: 5, y: 7), matrix: grid) == (266, 778))
        let r = grid.levels[3].resolution
        let first = grid.tileExtent(level: 3, column: 4, row: 4), last = grid.tileExtent(level: 3, column: 7, row: 7)
        #expect(meta.box == MetersRect(minX: first.minX - 10 * r, minY: last.minY - 10 * r, maxX: last.maxX + 10 * r, maxY: first.maxY + 10 * r))
        let small = Metatile(containing: TileCoord(z: 1, x: 1, y: 1), size: 4, buffer: 0, matrix: grid)
        #expect(small.columns == 2 && small.rows == 2 && small.pixelWidth == 512)
    }

    @Test func serviceExceptionReportsGiveTheirMessages() {
        let report = """
            <?xml version='1.0' encoding="UTF-8" standalone="no" ?>
            <ServiceExceptionReport version="1.3.0" xmlns="http://www.opengis.net/ogc">
            <ServiceException code="LayerNotDefined">
            msWMSLoadGetMapParams(): WMS server error. Invalid layer(s) given in the LAYERS parameter. A layer might be disabled for this request.
            </ServiceException>
            </ServiceExceptionReport>
            """
        #expect(ServiceExceptionText.message(in: Data(report.utf8))?.hasPrefix("LayerNotDefined: msWMSLoadGetMapParams(): WMS server error. Invalid layer(s)") == true)
        let ows = "<ows:ExceptionReport xmlns:ows=\"http://www.opengis.net/ows/1.1\"><ows:Exception exceptionCode=\"X\"><ows:ExceptionText>bad</ows:ExceptionText></ows:Exception></ows:ExceptionReport>"
        #expect(ServiceExceptionText.message(in: Data(ows.utf8)) == "bad")
        #expect(ServiceExceptionText.message(in: Data("<html>hi</html>".utf8)) == nil)
        #expect(ServiceExceptionText.message(in: Data([0x89, 0x50, 0x4E, 0x47])) == nil)
    }
}
