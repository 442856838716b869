import Foundation
import MapComposeCore
import MapComposeTestSupport
import Testing

@Suite(.serialized) struct ServeWMSTests {
    @Test func capabilitiesListTheStylesInBothVersions() throws {
        let fixture = try ServeFixture()
        let server = try fixture.start()
        _ = try server.get("/styles/ne/tiles.json")
        var ready = try server.get("/ready")
        for _ in 0..<600 where ready.status != 200 { usleep(100_000); ready = try server.get("/ready") }
        let v130 = try server.get("/wms?SERVICE=WMS&REQUEST=GetCapabilities&VERSION=1.3.0")
        #expect(v130.status == 200 && v130.headers["content-type"] == "text/xml")
        #expect(v130.text.contains("<WMS_Capabilities version=\"1.3.0\""))
        #expect(v130.text.contains("<Name>ne</Name>") && v130.text.contains("<CRS>EPSG:3857</CRS>"))
        #expect(v130.text.contains("<Format>image/png</Format>"))
        let v111 = try server.get("/wms?service=WMS&request=GetCapabilities&version=1.1.1")
        #expect(v111.status == 200 && v111.headers["content-type"] == "application/vnd.ogc.wms_xml")
        #expect(v111.text.contains("<WMT_MS_Capabilities version=\"1.1.1\">") && v111.text.contains("<SRS>EPSG:900913</SRS>"))
        for (answer, root) in [(v130, "WMS_Capabilities"), (v111, "WMT_MS_Capabilities")] {
            let tree = try XMLTreeElement.parse(answer.body)
            #expect(tree.name == root)
            let names = tree.path("Capability", "Layer")?.children("Layer").compactMap { $0.child("Name")?.text }
            #expect(names == ["ne"])
        }
    }

    @Test func getMapOfATilesBoxIsTheTile() throws {
        let fixture = try ServeFixture()
        let server = try fixture.start()
        let (z, x, y) = (3, 4, 2)
        let world = 2 * WebMercator.originShift, size = world / Double(1 << z)
        let minX = -WebMercator.originShift + Double(x) * size, maxY = WebMercator.originShift - Double(y) * size
        let bbox = "\(minX),\(maxY - size),\(minX + size),\(maxY)"
        let tile = try Pixels.decode(try server.get("/styles/ne/tiles/\(z)/\(x)/\(y).png").body)
        let v130 = try server.get("/wms?SERVICE=WMS&REQUEST=GetMap&VERSION=1.3.0&LAYERS=ne&STYLES=&CRS=EPSG:3857"
                                  + "&BBOX=\(bbox)&WIDTH=256&HEIGHT=256&FORMAT=image/png")
        #expect(v130.status == 200 && v130.headers["content-type"] == "image/png", "\(v130.text)")
        #expect(Pixels.differing(try Pixels.decode(v130.body), tile) == 0)
        let v111 = try server.get("/wms?SERVICE=WMS&REQUEST=GetMap&VERSION=1.1.1&LAYERS=ne&STYLES=&SRS=EPSG:900913"
                                  + "&BBOX=\(bbox)&WIDTH=256&HEIGHT=256&FORMAT=image/png")
        #expect(v111.status == 200, "\(v111.text)")
        #expect(Pixels.differing(try Pixels.decode(v111.body), tile) == 0)
    }

    @Test("errors are OGC exception reports", arguments: [
        ("VERSION=1.3.0&REQUEST=GetMap&LAYERS=ne&CRS=EPSG:4326&BBOX=0,0,1,1&WIDTH=10&HEIGHT=10&FORMAT=image/png", "InvalidCRS", "text/xml"),
        ("VERSION=1.1.1&REQUEST=GetMap&LAYERS=ne&SRS=EPSG:4326&BBOX=0,0,1,1&WIDTH=10&HEIGHT=10&FORMAT=image/png", "InvalidSRS",
         "application/vnd.ogc.se_xml"),
        ("VERSION=1.3.0&REQUEST=GetMap&LAYERS=nope&CRS=EPSG:3857&BBOX=0,0,1,1&WIDTH=10&HEIGHT=10&FORMAT=image/png", "LayerNotDefined", "text/xml"),
        ("VERSION=1.3.0&REQUEST=GetMap&LAYERS=ne&CRS=EPSG:3857&BBOX=0,0,1,1&WIDTH=10&HEIGHT=10&FORMAT=image/gif", "InvalidFormat", "text/xml"),
        ("VERSION=1.3.0&REQUEST=GetMap&LAYERS=ne&CRS=EPSG:3857&BBOX=1,0,0,1&WIDTH=10&HEIGHT=10&FORMAT=image/png", "InvalidParameterValue", "text/xml"),
        ("VERSION=1.3.0&REQUEST=GetMap&LAYERS=ne&CRS=EPSG:3857&BBOX=0,0,1,1&WIDTH=5000&HEIGHT=10&FORMAT=image/png", "InvalidParameterValue", "text/xml"),
        ("VERSION=1.3.0&REQUEST=GetFeatureInfo", "OperationNotSupported", "text/xml"),
    ])
    func exceptions(query: String, code: String, mediaType: String) throws {
        let fixture = try ServeFixture()
        let server = try fixture.start()
        var answer = try server.get("/wms?SERVICE=WMS&\(query)")
        for _ in 0..<600 where code != "LayerNotDefined" && answer.text.contains("LayerNotDefined") {
            usleep(100_000)
            answer = try server.get("/wms?SERVICE=WMS&\(query)")
        }
        #expect(answer.status == 400, "\(answer.text)")
        #expect(answer.headers["content-type"] == mediaType)
        #expect(answer.text.contains("<ServiceException code=\"\(code)\">"), "\(answer.text)")
    }
}
