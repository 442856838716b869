import Foundation
import Testing
@testable import MapComposeCore

@Suite struct GeoJSONOverlayTests {
    func overlays(_ json: String) throws(OverlayError) -> [Overlay] {
        try GeoJSONOverlay.overlays(from: Data(json.utf8))
    }

    @Test func simplestylePropertiesBecomeOverlayStyles() throws {
        let result = try overlays("""
        {"type":"FeatureCollection","features":[
          {"type":"Feature","properties":{"marker-color":"#00f","marker-size":"small","title":"HQ"},
           "geometry":{"type":"Point","coordinates":[2.35,48.85]}},
          {"type":"Feature","properties":{"stroke":"ff0000","stroke-width":5,"stroke-opacity":0.5,"geodesic":true},
           "geometry":{"type":"LineString","coordinates":[[0,0],[10,10]]}},
          {"type":"Feature","properties":{"fill":"#0f0","fill-opacity":0.25},
           "geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}},
          {"type":"Feature","properties":null,"geometry":null}
        ]}
        """)
        #expect(result.count == 3)
        guard case .marker(let marker) = result[0], case .path(let path) = result[1], case .polygon(let polygon) = result[2] else {
            Issue.record("expected a marker, a path and a polygon"); return
        }
        #expect(marker.color == RGBA(r: 0, g: 0, b: 255) && marker.label == "HQ")
        guard case .pin(.small) = marker.symbol else { Issue.record("small pin expected"); return }
        #expect(path.stroke == StrokeStyle(color: RGBA(r: 255, g: 0, b: 0, a: 128), width: 5) && path.geodesic)
        #expect(polygon.fill == RGBA(r: 0, g: 255, b: 0, a: 64))
        #expect(polygon.rings == [[LonLat(lon: 0, lat: 0), LonLat(lon: 1, lat: 0), LonLat(lon: 1, lat: 1)]], "closing position dropped")
    }

    @Test(arguments: [
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]}},{"type":"Feature","properties":{"stroke":"blurple"},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}]}"#,
         "features[1]: stroke 'blurple' is not a colour"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,95]}}]}"#,
         "features[0].geometry.coordinates: latitude 95.0 is outside -90…90"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0]]}}]}"#,
         "features[0]: line 1 needs at least 2 positions, got 1"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"stroke-width":1e6},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}]}"#,
         "features[0]: stroke-width 1000000 is outside 0…100"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,1],[0,0]]]}}]}"#,
         "features[0]: polygon 1 has a ring of fewer than 3 distinct positions"),
        (#"{"type":"Feature","geometry":{"type":"Point","coordinates":"here"}}"#, "a position must be [longitude, latitude]"),
        ("{not json", "not valid JSON"),
        ("[1,2,3]", "not GeoJSON"),
    ])
    func badFeaturesNameTheirIndex(json: String, expected: String) {
        do {
            _ = try overlays(json)
            Issue.record("no error for \(json)")
        } catch {
            #expect(error.reason.contains(expected), "\(error.reason)")
        }
    }
}
