import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

@Suite(.serialized) struct ServeMapboxPathTests {
    /// The path's characters that a URL path segment cannot carry as they are.
    static func escaped(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~,+!*'()@:")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    @Test func mapboxStaticPathsHaveTheCLIsPixels() throws {
        let fixture = try ServeFixture()
        let server = try fixture.start()
        let polyline = EncodedPolyline.encode([LonLat(lon: -3, lat: 47), LonLat(lon: 15, lat: 49), LonLat(lon: 10, lat: 55)])
        let geojson = ##"{"type":"Feature","properties":{"stroke":"#00aa00","stroke-width":3},"geometry":{"type":"LineString","coordinates":[[-5,40],[20,60]]}}"##
        try fixture.folder.write(geojson, to: "line.geojson")
        let cases: [(path: String, cli: [String])] = [
            ("pin-s-a+f00(-0.12,51.5),path-4+c00-0.8(\(Self.escaped(polyline)))/-0.12,51.5,3/300x200@2x",
             ["--center", "51.5,-0.12", "--zoom", "4", "--size", "300x200", "--scale", "2",
              "--marker", "51.5,-0.12,#ff0000,a;size=small", "--path", "enc=\(polyline);color=#cc0000cc;width=4"]),
            ("pin-l+2a9d8f(13.4,52.5),geojson(\(Self.escaped(geojson)))/auto/320x240",
             ["--marker", "52.5,13.4,#2a9d8f,;size=large", "--overlay", "line.geojson", "--fractional-zoom", "--size", "320x240"]),
            ("[-11,49,2,61]/256x256", ["--bbox", "-11,49,2,61", "--fractional-zoom", "--size", "256x256"]),
            ("10,48,4.5,0/200x150", ["--center", "48,10", "--zoom", "5.5", "--size", "200x150"]),
        ]
        for (index, item) in cases.enumerated() {
            let answer = try server.get("/styles/v1/someone/ne/static/\(item.path)")
            #expect(answer.status == 200, "\(item.path): \(answer.text)")
            #expect(answer.headers["content-type"] == "image/png")
            guard answer.status == 200 else { continue }
            let expected = try cliRender(["--style", "ne.yaml", "--no-cache"] + item.cli, in: fixture.url, output: "mapbox-\(index).png")
            #expect(Pixels.differing(try Pixels.decode(answer.body), expected) == 0, "\(item.path)")
        }
    }

    @Test func unsupportedMapboxPartsAreJSONErrors() throws {
        let fixture = try ServeFixture()
        let server = try fixture.start()
        for (path, parameter) in [("10,48,4,30/200x150", "bearing"), ("10,48,4,0,60/200x150", "pitch"),
                                  ("url-https%3A%2F%2Fexample.com%2Fm.png(1,1)/auto/100x100", "overlay"),
                                  ("pin-s+zz(1,1)/auto/100x100", "overlay"), ("10,48/200x150", "position"),
                                  ("10,48,4/999999x1", "size")] {
            let answer = try server.get("/styles/v1/someone/ne/static/\(path)")
            #expect(answer.status == 400 || answer.status == 404, "\(path): \(answer.status) \(answer.text)")
            if answer.status == 400 { #expect(answer.json["parameter"] as? String == parameter, "\(path): \(answer.text)") }
        }
        #expect(try server.get("/styles/v1/someone/other/static/auto/100x100").status == 404)
    }
}
