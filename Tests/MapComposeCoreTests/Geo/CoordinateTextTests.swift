import Testing
@testable import MapComposeCore

/// The text forms of coordinates, boxes and sizes the command line and manifests share.
@Suite struct CoordinateTextTests {
    @Test func numbersMayHaveSpacesAndTabsAroundThem() throws {
        let center = try CoordinateText.center(" 51.5 ,\t-0.12\u{00A0}")
        #expect(center == LonLat(lon: -0.12, lat: 51.5))
        let box = try CoordinateText.bbox("-11, 49, 2, 61")
        #expect(box == GeoBounds(west: -11, south: 49, east: 2, north: 61))
    }

    @Test(arguments: ["51.5,\n-0.12", "51.5,", ",1", " , ", "51.5;-0.12", "1,2,3", "nan,0", "inf,0", "91,0", "0,181"])
    func otherTextIsRefused(text: String) {
        #expect(throws: CoordinateTextError.self) { try CoordinateText.center(text) }
    }

    @Test func sizesAreWholePositivePixels() throws {
        #expect(try CoordinateText.size("800x600") == (800, 600))
        #expect(try CoordinateText.size("2X3") == (2, 3))
        for text in ["0x600", "800x", "x", "1.5x2", "800x600x1", " 800x600"] {
            #expect(throws: CoordinateTextError.self, "\(text)") { try CoordinateText.size(text) }
        }
    }
}
