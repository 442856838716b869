import Testing
@testable import MapComposeCore

@Suite struct OverlayFitTests {
    func marker(_ lat: Double, _ lon: Double) -> Overlay { .marker(MarkerOverlay(position: LonLat(lon: lon, lat: lat))) }

    @Test func fitsEveryMarkerInsideThePaddedOutput() throws {
        let overlays = [marker(51.5, -0.12), marker(48.85, 2.35), marker(52.52, 13.4)]
        let viewport = try OverlayFit.viewport(for: overlays, width: 600, height: 400, scale: 1, padding: 10, fractionalZoom: false)
        for case .marker(let m) in overlays {
            let p = viewport.devicePoint(m.position)
            #expect(p.x >= 10 && p.x <= 590 && p.y >= 10 + 32 && p.y <= 390, "\(m.position) at \(p): the whole pin shows")
        }
        let closer = try Viewport(center: viewport.center, zoom: viewport.zoom + 1, width: 600, height: 400)
        let outside = overlays.contains { overlay in
            guard case .marker(let m) = overlay else { return false }
            let p = closer.devicePoint(m.position)
            return p.x < 0 || p.x > 600 || p.y < 0 || p.y > 400
        }
        #expect(outside, "the largest whole zoom that fits")
    }

    @Test func boundsAcrossTheAntimeridianAreTheSmallBox() throws {
        let path = Overlay.path(PathOverlay(points: [LonLat(lon: 170, lat: -10), LonLat(lon: -170, lat: 10)]))
        let bounds = try #require(OverlayGeometry.bounds(of: [path]))
        #expect(bounds.west == 170 && bounds.east == -170 && bounds.crossesAntimeridian)
        let viewport = try OverlayFit.viewport(for: [path], width: 400, height: 400, scale: 1, padding: 0, fractionalZoom: false)
        #expect(abs(abs(viewport.center.lon) - 180) < 1e-6, "centred on the antimeridian, not on 0°")
        #expect(viewport.zoom >= 3)
    }

    @Test func aSinglePointIsShownAtZoom15AndNothingIsAnError() throws {
        let viewport = try OverlayFit.viewport(for: [marker(10, 20)], width: 100, height: 100, scale: 1, padding: 0, fractionalZoom: false)
        #expect(viewport.zoom == OverlayFit.singlePointZoom && viewport.center == LonLat(lon: 20, lat: 10))
        #expect(throws: ViewportError.nothingToFit) {
            try OverlayFit.viewport(for: [], width: 100, height: 100, scale: 1, padding: 0, fractionalZoom: false)
        }
    }

    /// A label beside a pin at the east edge used to be cut off by the fitted view.
    @Test func labelledMarkersLeaveRoomForTheirLabels() throws {
        let overlays: [Overlay] = [.marker(MarkerOverlay(position: LonLat(lon: -0.12, lat: 51.5), label: "London")),
                                   .marker(MarkerOverlay(position: LonLat(lon: 139.69, lat: 35.68), label: "Tokyo"))]
        let viewport = try OverlayFit.viewport(for: overlays, width: 900, height: 500, scale: 1, padding: 0, fractionalZoom: true)
        let tokyo = viewport.devicePoint(LonLat(lon: 139.69, lat: 35.68))
        guard case .marker(let marker) = overlays[1] else { return }
        let labelEnd = tokyo.x + marker.symbol.reach / 2 + 3 + 5 * 12 * 0.65
        #expect(labelEnd <= 900, "the label ends at \(labelEnd)")
        #expect(OverlayFit.fitReach(of: marker) > marker.symbol.reach)
    }
}

@Suite struct OverlayFitLimitTests {
    @Test func pointsBeyondTheMercatorLimitAreNamedSo() throws {
        let pole = Overlay.marker(MarkerOverlay(position: LonLat(lon: 0, lat: 90)))
        #expect(throws: ViewportError.beyondMercatorLimit(latitude: 90)) {
            try OverlayFit.viewport(for: [pole], width: 100, height: 100, scale: 1, padding: 0, fractionalZoom: false)
        }
    }
}
