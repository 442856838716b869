import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

@Suite struct OverlaySyntaxTests {
    let noFiles: OverlaySyntax.FileResolver = { URL(fileURLWithPath: $0) }

    func reason(_ kind: OverlayKind, _ text: String) -> String? {
        do {
            _ = try OverlaySyntax.parse(kind, text, files: noFiles)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func markerWithColourLabelAndSettings() throws {
        guard case .marker(let marker) = try OverlaySyntax.parse(.marker, "51.5,-0.12,#00ff00,AB;size=large", files: noFiles) else {
            Issue.record("not a marker"); return
        }
        #expect(marker.position == LonLat(lon: -0.12, lat: 51.5))
        #expect(marker.color == RGBA(r: 0, g: 255, b: 0))
        #expect(marker.label == "AB")
        guard case .pin(.large) = marker.symbol else { Issue.record("expected a large pin"); return }
        guard case .marker(let plain) = try OverlaySyntax.parse(.marker, "-33.9,151.2,,Sydney, NSW", files: noFiles) else { return }
        #expect(plain.color == MarkerOverlay.defaultColor && plain.label == "Sydney, NSW", "an empty colour keeps the default")
    }

    /// Whether an overlay may draw text agrees with what parsing it gives: a marker's label is
    /// its fourth part, settings aside; text that does not parse counts as text (its error
    /// comes when it is parsed).
    @Test(arguments: ["51.5,-0.12", "51.5,-0.12,red", "51.5,-0.12,red,", "51.5,-0.12,,A", "51.5,-0.12,red,A;size=small",
                      "51.5,-0.12;symbol=circle", "51.5,-0.12,red,A;B", "51.5,-0.12,#c00,Big Ben, London"])
    func markerMayDrawTextWhenItHasALabel(_ text: String) throws {
        guard case .marker(let marker) = try OverlaySyntax.parse(.marker, text, files: noFiles) else {
            Issue.record("not a marker")
            return
        }
        #expect(OverlaySyntax.mayDrawText(.marker, text) == (marker.label != nil))
    }

    @Test func otherKindsMayDrawTextOnlyAsText() {
        #expect(OverlaySyntax.mayDrawText(.text, "51.5,-0.12,Hello"))
        #expect(!OverlaySyntax.mayDrawText(.path, "51.5,-0.12;48.85,2.35;color=red"))
        #expect(!OverlaySyntax.mayDrawText(.polygon, "1,2;3,4;5,6"))
        #expect(!OverlaySyntax.mayDrawText(.circle, "1,2,500"))
        #expect(OverlaySyntax.mayDrawText(.marker, "51.5,-0.12;colour=red"))
    }

    @Test func pathPointsSettingsAndEncodedPolyline() throws {
        guard case .path(let path) = try OverlaySyntax.parse(.path, "51.47,-0.45; 35.55,139.78;color=red;width=5;opacity=0.5;geodesic=true",
                                                              files: noFiles) else { return }
        #expect(path.points.count == 2 && path.geodesic)
        #expect(path.stroke == StrokeStyle(color: RGBA(r: 255, g: 0, b: 0, a: 128), width: 5))
        guard case .path(let encoded) = try OverlaySyntax.parse(.path, "enc=_p~iF~ps|U_ulLnnqC_mqNvxq`@", files: noFiles) else { return }
        #expect(encoded.points.count == 3)
    }

    @Test func polygonCircleAndText() throws {
        guard case .polygon(let polygon) = try OverlaySyntax.parse(.polygon, "0,0;0,10;10,10;fill=none;stroke=#123", files: noFiles) else { return }
        #expect(polygon.fill == nil && polygon.stroke?.color == RGBA(r: 0x11, g: 0x22, b: 0x33))
        guard case .circle(let circle) = try OverlaySyntax.parse(.circle, "48.85,2.35,5000;fill=#f005", files: noFiles) else { return }
        #expect(circle.radius == 5000 && circle.fill == RGBA(r: 255, g: 0, b: 0, a: 0x55))
        guard case .text(let text) = try OverlaySyntax.parse(.text, "10,20,a;b=c;size=20", files: noFiles) else { return }
        #expect(text.text == "a;b=c" && text.size == 20, "text keeps parts that are not settings")
    }

    @Test(arguments: [
        (OverlayKind.marker, "95,0", "latitude 95 is outside -90…90"),
        (.marker, "10,200", "longitude 200 is outside -180…180"),
        (.marker, "10,20,reddish", "colour 'reddish' is not a colour"),
        (.marker, "10,20;shape=star", "unknown setting 'shape'"),
        (.marker, "10,20;icon=/nonexistent/pin.png", "cannot read icon '/nonexistent/pin.png'"),
        (.path, "", "a path needs at least 2 points, got 0"),
        (.path, "enc=", "a path needs at least 2 points, got 0"),
        (.path, "10,20", "a path needs at least 2 points, got 1"),
        (.path, "10,20;30,40;width=1e9", "width 1000000000 is outside 0…100"),
        (.path, "10,20;30,40;color=nope", "color 'nope' is not a colour"),
        (.path, "10,20;30", "point 2 '30': expected LAT,LON"),
        (.path, "10,20;30,40;enc=_p~iF~ps|U", "give points or enc=POLYLINE, not both"),
        (.path, "enc=_p~iF~ps|U_", "ends in the middle of a point"),
        (.polygon, "0,0;1,1", "a polygon needs at least 3 points"),
        (.circle, "0,0,-5", "radius -5 is outside 0…10000000"),
        (.circle, "0,0,0", "radius must be more than 0 metres"),
        (.text, "0,0,", "expected LAT,LON,TEXT"),
    ])
    func badOverlaysSayWhatIsWrong(kind: OverlayKind, text: String, expected: String) {
        let message = reason(kind, text)
        #expect(message?.contains(expected) == true, "\(kind.rawValue) '\(text)' gave \(message ?? "no error")")
    }

    @Test func iconFromPNGWithAnchorInsideTheImage() throws {
        let folder = try TemporaryFolder()
        let png = try TileFixtures.solidPNG(RGBA(r: 0, g: 0, b: 255), size: 24)
        let url = try folder.write(png, to: "pin.png")
        guard case .marker(let marker) = try OverlaySyntax.parse(.marker, "0,0;icon=\(url.path);anchor=12,24", files: noFiles),
              case .icon(let icon) = marker.symbol else { Issue.record("expected an icon marker"); return }
        #expect(icon.image.width == 24 && icon.anchorX == 12 && icon.anchorY == 24)
        #expect(reason(.marker, "0,0;icon=\(url.path);anchor=30,2")?.contains("lies outside the 24x24 icon") == true)
        let garbage = try folder.write(Data("not an image".utf8), to: "bad.png")
        #expect(reason(.marker, "0,0;icon=\(garbage.path)")?.contains("is not a usable PNG, JPEG or WebP image") == true)
    }

    /// Markers that name one icon file share one image, read once, each with its own anchor.
    @Test func markersNamingOneIconShareItsImage() throws {
        let folder = try TemporaryFolder()
        let pin = try folder.write(try TileFixtures.solidPNG(RGBA(r: 0, g: 0, b: 255), size: 24), to: "pin.png")
        let flag = try folder.write(try TileFixtures.solidPNG(RGBA(r: 255, g: 0, b: 0), size: 16), to: "flag.png")
        let arguments = OverlayArguments(markers: ["0,0;icon=\(pin.path)", "1,1;icon=\(pin.path);anchor=12,12",
                                                   "2,2;icon=\(flag.path)", "3,3;icon=\(folder.url.path)/./pin.png"])
        let icons: [MarkerIcon] = try arguments.overlays().map { overlay in
            guard case .marker(let marker) = overlay, case .icon(let icon) = marker.symbol else { throw OverlayError("not an icon marker") }
            return icon
        }
        #expect(icons.count == 4)
        #expect(icons[0].image === icons[1].image && icons[0].image === icons[3].image, "one image for one file")
        #expect(icons[2].image !== icons[0].image && icons[2].image.width == 16)
        #expect(icons[0].anchorX == 12 && icons[0].anchorY == 24 && icons[1].anchorY == 12, "each marker keeps its anchor")
    }
}
