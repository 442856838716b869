import Foundation
import Testing
@testable import MapComposeCore

/// Cutting features to a band keeps what lies inside, exactly, with the cut's points kept at
/// every zoom; simplification marks keep the ends and the corners that matter.
@Suite struct FeatureClipperTests {
    static func points(_ pairs: [(Double, Double)]) -> [TilingPoint] { pairs.map { TilingPoint(x: $0.0, y: $0.1, significance: 0) } }

    /// Shoelace area of a closed ring.
    static func area(_ ring: [TilingPoint]) -> Double {
        var sum = 0.0
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            sum += a.x * b.y - b.x * a.y
        }
        return abs(sum) / 2
    }

    @Test func aSquareCutByABandKeepsTheAreaInside() {
        let square = Self.points([(0.1, 0.1), (0.5, 0.1), (0.5, 0.5), (0.1, 0.5), (0.1, 0.1)])
        let cut = FeatureClipper.clipRing(square, low: 0.2, high: 0.3, axis: 0)
        #expect(abs(Self.area(cut) - 0.1 * 0.4) < 1e-12)
        #expect(cut.allSatisfy { $0.x >= 0.2 - 1e-12 && $0.x <= 0.3 + 1e-12 })
        // Points made by the cut are kept at every zoom.
        #expect(cut.filter { $0.x == 0.2 || $0.x == 0.3 }.allSatisfy { $0.significance == 1 })
    }

    @Test func aConcaveRingKeepsItsAreaInsideTheBand() {
        // A U shape: two arms reaching up through the band y ∈ [0, 0.2].
        let u = Self.points([(0, 0), (0.1, 0), (0.1, 0.3), (0.2, 0.3), (0.2, 0), (0.3, 0), (0.3, 0.4), (0, 0.4)])
        let cut = FeatureClipper.clipRing(u, low: 0, high: 0.2, axis: 1)
        #expect(abs(Self.area(cut) - 2 * 0.1 * 0.2) < 1e-12)
    }

    @Test func aLineCrossingTheBandIsSplitIntoItsInsideParts() {
        // In, out above, back in, out below, crossing the whole band in one segment.
        let line = Self.points([(0.15, 0), (0.15, 1), (0.5, 1), (0.25, 0), (0.25, 1), (0.05, 2), (0.45, 3)])
        let parts = FeatureClipper.clipLine(line, low: 0.1, high: 0.3, axis: 0)
        #expect(parts.count == 3)
        #expect(parts.allSatisfy { part in part.allSatisfy { $0.x >= 0.1 - 1e-12 && $0.x <= 0.3 + 1e-12 } })
        #expect(parts[0].map(\.y) == [0, 1, 1])
        #expect(parts[1].count == 4 && parts[1].first!.x == 0.3 && parts[1].last!.x == 0.1)
        // The last segment crosses the band whole: one part of two cut points.
        let last = parts[2]
        #expect(last.count == 2 && last[0].x == 0.1 && last[1].x == 0.3)
    }

    @Test func featuresInsideAreKeptAndOutsideDropped() {
        let inside = TilingFeature(layer: 0, properties: [], kind: .line, parts: [Self.points([(0.2, 0.2), (0.25, 0.3)])], minZoom: 0)
        let outside = TilingFeature(layer: 0, properties: [], kind: .point, parts: [Self.points([(0.9, 0.9)])], minZoom: 0)
        let result = FeatureClipper.clip([inside, outside], low: 0, high: 0.5, axis: 0)
        #expect(result.count == 1 && result[0].parts[0].count == 2)
    }

    @Test func significanceKeepsEndsAndTheFarthestCorner() {
        var line = Self.points([(0, 0), (0.5, 0.001), (1, 0), (1, 1)])
        LineSignificance.mark(&line)
        #expect(line[0].significance == 1 && line[3].significance == 1)
        // (1, 0) is the corner: far from the chord (0,0)–(1,1); (0.5, 0.001) hardly bends.
        #expect(line[2].significance > 0.4)
        #expect(line[1].significance < 1e-5)
    }

    @Test func worldCoordinatesAreWebMercator() {
        let origin = TilingFeature.world(lon: 0, lat: 0)
        #expect(origin.x == 0.5 && abs(origin.y - 0.5) < 1e-12)
        let corner = TilingFeature.world(lon: -180, lat: 89)
        #expect(corner.x == 0 && corner.y == 0)
        let london = TilingFeature.world(lon: -0.12, lat: 51.5)
        // Tile 12/2046/1362 holds London.
        #expect(Int(london.x * 4096) == 2046 && Int(london.y * 4096) == 1362)
    }
}
