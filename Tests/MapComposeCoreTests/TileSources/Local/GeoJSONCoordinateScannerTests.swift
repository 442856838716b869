import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Coordinate arrays read ahead of JSONSerialization give the same geometries, and anything
/// unusual is left for the reader to judge as before.
@Suite struct GeoJSONCoordinateScannerTests {
    @Test func geometriesAreTheSameAsFromTheObjects() throws {
        let text = """
            {"type":"FeatureCollection","features":[
             {"type":"Feature","properties":{"name":"coordinates","coordinates":"[[1,2]]"},
              "geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,5.5e0],[6,-6.25E+0],[5,5]]]]}},
             {"type":"Feature","geometry":{"type":"LineString","coordinates" : [ [ -1.5 , 2 , 100 ] , [3,4] ]}},
             {"type":"Feature","geometry":{"type":"MultiPoint","coordinates":[[7,8],[9,10]]}},
             {"type":"Feature","geometry":{"type":"Point","coordinates":[11,12]}}]}
            """
        let (skeleton, coordinates) = GeoJSONCoordinateScanner.extract(Data(text.utf8))
        #expect(coordinates.count == 3)
        #expect(!String(decoding: skeleton, as: UTF8.self).contains("[0,0]"))
        let features = try GeoJSONReader.read(Data(text.utf8))
        #expect(features[0].properties["coordinates"] as? String == "[[1,2]]", "a property's string is left alone")
        #expect(features[0].polygons.map { $0.map { $0.map(\.lat) } } == [[[0, 0, 1, 0]], [[5, 5.5, -6.25, 5]]])
        #expect(features[1].lines == [[LonLat(lon: -1.5, lat: 2), LonLat(lon: 3, lat: 4)]])
        #expect(features[2].points == [LonLat(lon: 7, lat: 8), LonLat(lon: 9, lat: 10)])
        #expect(features[3].points == [LonLat(lon: 11, lat: 12)])
    }

    @Test(arguments: [
        #"{"type":"LineString","coordinates":[[0,0],[1,"1"]]}"#,
        #"{"type":"LineString","coordinates":[[0,0],[1]]}"#,
        #"{"type":"LineString","coordinates":[[0,0],[01,1]]}"#,
        #"{"type":"LineString","coordinates":[[0,0],[[1,1]]]}"#,
        #"{"type":"LineString","coordinates":[[0,0],[1,1]"#,
    ])
    func unusualCoordinatesAreLeftInTheText(text: String) {
        let (skeleton, coordinates) = GeoJSONCoordinateScanner.extract(Data(text.utf8))
        #expect(coordinates.isEmpty)
        #expect(skeleton == Data(text.utf8))
    }

    @Test func deepNestingIsLeftToTheReader() {
        let text = #"{"type":"LineString","coordinates":"# + String(repeating: "[", count: 100_000)
            + String(repeating: "]", count: 100_000) + "}"
        #expect(GeoJSONCoordinateScanner.extract(Data(text.utf8)).coordinates.isEmpty)
    }

    @Test func aLongLineIsReadWhole() throws {
        var text = #"{"type":"Feature","properties":{"geodesic":true},"geometry":{"type":"LineString","coordinates":["#
        text += (0..<200_000).map { "[\(Double($0) * 1e-4 - 50),\(Double($0 % 1000) * 1e-3)]" }.joined(separator: ",")
        text += "]}}"
        let overlays = try GeoJSONOverlay.overlays(from: Data(text.utf8))
        guard case .path(let path) = try #require(overlays.first) else { Issue.record("not a path"); return }
        #expect(path.points.count == 200_000 && path.geodesic)
        #expect(path.points[199_999] == LonLat(lon: 199_999 * 1e-4 - 50, lat: 0.999))
    }

    /// Every number reads as strtod reads it, bit for bit: short ones through the exact fast
    /// path, long ones, large exponents, -0 and subnormals through strtod.
    @Test func numbersReadExactlyAsStrtodReadsThem() throws {
        var random = SplitMix(state: 7)
        var texts = ["0", "-0", "-0.0", "1e22", "1e23", "9007199254740993", "9007199254740992", "123456789012345678901234",
                     "0.1", "-179.99999999999997", "4.9e-324", "2.2250738585072014e-308", "1.7976931348623157e308",
                     "1e-400", "0.000000000000000000000001", "12345678901234567e-3", "5e+0", "5E-0", "1.5e1000"]
        for _ in 0..<20_000 {
            let digits = Int(random.next() % 19) + 1
            var text = (0..<digits).map { _ in String(random.next() % 10) }.joined()
            text = String(text.drop { $0 == "0" }.isEmpty ? "0" : String(text.drop { $0 == "0" }))
            if random.next() % 2 == 0, text.count > 1 {
                let point = Int(random.next() % UInt64(text.count - 1)) + 1
                text.insert(".", at: text.index(text.startIndex, offsetBy: point))
            }
            if random.next() % 4 == 0 { text += "e\(Int(random.next() % 60) - 30)" }
            if random.next() % 2 == 0 { text = "-" + text }
            texts.append(text)
        }
        for chunk in stride(from: 0, to: texts.count, by: 2) where chunk + 1 < texts.count {
            let pair = "[\(texts[chunk]),\(texts[chunk + 1])]"
            let json = #"{"type":"LineString","coordinates":[[0,0],"# + pair + "]}"
            let (_, coordinates) = GeoJSONCoordinateScanner.extract(Data(json.utf8))
            let line = try #require(coordinates.first as? [LonLat], "\(pair)")
            let expected = (strtod(texts[chunk], nil), strtod(texts[chunk + 1], nil))
            #expect(line[1].lon.bitPattern == expected.0.bitPattern && line[1].lat.bitPattern == expected.1.bitPattern,
                    "\(pair): \(line[1].lon), \(line[1].lat) vs \(expected.0), \(expected.1)")
        }
    }
}
