import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// GeoJSON problems are reported where they are: JSON syntax by line and column, bad
/// positions by feature index and coordinate path.
@Suite struct GeoJSONParsingTests {
    func reason(_ text: String) -> String? {
        do {
            _ = try GeoJSONTileSource(spec: GeoJSONSourceSpec(data: Data(text.utf8), path: "t.geojson"))
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func syntaxErrorsGiveLineAndColumn() {
        let text = "{\"type\": \"FeatureCollection\",\n \"features\": [1, }\n"
        #expect(reason(text) == "not valid JSON at line 2, column 18: invalid value")
        #expect(reason("{\"type\": \"Point\", \"coordinates\": [0, 0]") == "not valid JSON at line 1, column 40: unexpected end of file during JSON parse",
                "the end of the data is a position too")
    }

    @Test func numbersBeyondDoubleAreLocated() {
        #expect(reason("{\"type\": \"Point\", \"coordinates\": [0, 1e400]}")
                == "not valid JSON at line 1, column 38: number 1e400 is out of range")
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect(reason("{\"name\": \"Zürich\",\n \"ä\": x}") == "not valid JSON at line 2, column 7: invalid value")
    }

    @Test(arguments: [
        ("{\"type\": \"Point\", \"coordinates\": [1e300, 0]}", "geometry.coordinates: longitude 1e+300 is outside -180…180"),
        ("{\"type\": \"Point\", \"coordinates\": [0, -1e300]}", "geometry.coordinates: latitude -1e+300 is outside -90…90"),
        ("{\"type\": \"LineString\", \"coordinates\": [[0, 0], [180.5, 1]]}", "geometry.coordinates[1]: longitude 180.5 is outside -180…180"),
    ])
    func outOfRangePositionsAreRejected(_ text: String, _ expected: String) {
        #expect(reason(text) == expected)
    }

    @Test func badPositionsNameTheFeatureAndThePath() {
        var features = (0..<3).map { _ in #"{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [1, 2]}}"# }
        let ring = (0..<7).map { $0 == 5 ? "[1e300, 1]" : "[\($0), 1]" }.joined(separator: ", ")
        features.append(#"{"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[\#(ring)]]}}"#)
        let text = #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}"#
        #expect(reason(text) == "features[3].geometry.coordinates[0][5]: longitude 1e+300 is outside -180…180")
        let multi = #"{"type": "MultiPolygon", "coordinates": [[[[0, 0], [1, 1]]], [[[0, 0]], [[2, 2], [3, "x"]]]]}"#
        #expect(reason(multi) == "geometry.coordinates[1][1][1]: a position must be [longitude, latitude]")
    }

    @Test func worldEdgesAndRoundingAtTheEdgeAreAccepted() throws {
        let text = #"{"type": "MultiPoint", "coordinates": [[-180, -90], [180, 90], [180.0000000000001, 0]]}"#
        #expect(try GeoJSONTileSource(spec: GeoJSONSourceSpec(data: Data(text.utf8), path: "t")).features.count == 1)
    }

    @Test func nonArrayCoordinatesAreNamed() {
        #expect(reason(#"{"type": "MultiLineString", "coordinates": 5}"#) == "geometry.coordinates: expected an array of lines")
    }
}
