import Testing
@testable import MapComposeCore

@Suite struct EncodedPolylineTests {
    /// The example in Google's documentation of the format.
    @Test func decodesTheDocumentedExample() throws {
        let points = try EncodedPolyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        let expected = [(38.5, -120.2), (40.7, -120.95), (43.252, -126.453)]
        #expect(points.count == expected.count)
        for (point, (lat, lon)) in zip(points, expected) {
            #expect(abs(point.lat - lat) < 1e-9 && abs(point.lon - lon) < 1e-9)
        }
        #expect(EncodedPolyline.encode(points) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
    }

    @Test func roundTripsPointsAtFivePlaces() throws {
        var generator = SystemRandomNumberGenerator()
        let points = (0..<200).map { _ in
            LonLat(lon: (Double.random(in: -180...180, using: &generator) * 1e5).rounded() / 1e5,
                   lat: (Double.random(in: -85...85, using: &generator) * 1e5).rounded() / 1e5)
        }
        let back = try EncodedPolyline.decode(EncodedPolyline.encode(points))
        #expect(back.count == points.count)
        for (a, b) in zip(points, back) { #expect(abs(a.lat - b.lat) < 1e-9 && abs(a.lon - b.lon) < 1e-9) }
    }

    @Test func refusesCharactersOutsideTheFormat() {
        #expect(throws: OverlayError.self) { try EncodedPolyline.decode("_p~iF ~ps|U") }
        #expect(throws: OverlayError.self) { try EncodedPolyline.decode("~~~~~~~~~~~~~~~") }
        #expect((try? EncodedPolyline.decode("")) == [])
    }
}
