import CCairo
import CLineCoverage
import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// Thin lines drawn through `LineCoverageMask` (MapLibre line layers): coverage ramped over a
/// pixel at each edge, flat, square or round ends, round joins, dashes; checked against Cairo's
/// own stroke of the same lines.
@Suite struct LineCoverageMaskTests {
    typealias Point = SIMD2<Double>

    /// The lines on a transparent `width` × `height` image in opaque black, through the mask
    /// (`cairo: false`) or stroked by Cairo with round joins.
    static func draw(_ lines: [[Point]], width: Double, cap: mc_line_cap, dashes: [Double] = [], cairo: Bool,
                     size: (Int, Int) = (64, 64)) throws -> RasterImage {
        let image = try RasterImage(width: size.0, height: size.1)
        let context = try DrawingContext(image)
        let cr = context.cr
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        if cairo {
            cairo_set_line_width(cr, width)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_set_line_cap(cr, cap == MC_CAP_ROUND ? CAIRO_LINE_CAP_ROUND : cap == MC_CAP_SQUARE ? CAIRO_LINE_CAP_SQUARE
                               : CAIRO_LINE_CAP_BUTT)
            if !dashes.isEmpty { cairo_set_dash(cr, dashes, Int32(dashes.count), 0) }
            for line in lines {
                cairo_move_to(cr, line[0].x, line[0].y)
                for p in line.dropFirst() { cairo_line_to(cr, p.x, p.y) }
            }
            cairo_stroke(cr)
        } else {
            let mask = try #require(LineCoverageMask(minX: 0, minY: 0, maxX: Double(size.0), maxY: Double(size.1)))
            for line in lines { mask.add(line, halfWidth: width / 2, cap: cap, dashes: dashes) }
            try mask.paint(on: cr)
        }
        try context.finish("draw lines")
        return image
    }

    static func alpha(_ image: RasterImage, _ x: Int, _ y: Int) -> Int { Int(image.rgba(x: x, y: y).a) }

    /// A horizontal line 3 pixels wide on row boundaries covers three rows whole; 1 pixel wide
    /// between two rows' centres, half of each.
    @Test func edgesCoverWhatABoxFilterSees() throws {
        let solid = try Self.draw([[Point(8, 20), Point(56, 20)]], width: 3, cap: MC_CAP_BUTT, cairo: false)
        #expect((17...22).map { Self.alpha(solid, 30, $0) } == [0, 128, 255, 255, 128, 0])
        let whole = try Self.draw([[Point(8, 20.5), Point(56, 20.5)]], width: 3, cap: MC_CAP_BUTT, cairo: false)
        #expect((18...23).map { Self.alpha(whole, 30, $0) } == [0, 255, 255, 255, 0, 0])
        // Butt ends stop at the ends; round and square ones reach half the width past them.
        #expect(Self.alpha(whole, 8, 20) == 255 && Self.alpha(whole, 7, 20) == 0)
        for cap in [MC_CAP_ROUND, MC_CAP_SQUARE] {
            let capped = try Self.draw([[Point(8, 20.5), Point(56, 20.5)]], width: 3, cap: cap, cairo: false)
            #expect(Self.alpha(capped, 7, 20) == 255, "\(cap)")
            #expect(Self.alpha(capped, 5, 20) == 0, "\(cap)")
        }
    }

    /// The same lines, thin and thick, bent, dashed or not, with each cap, drawn through the
    /// mask and by Cairo: a few levels of 255 apart on average; at most half apart anywhere, and
    /// more than a quarter apart at under 1.5 % of the pixels (a dash that starts or ends within a
    /// pixel of a corner: the mask picks the side of the corner by the pixel's centre).
    @Test func theMaskDrawsWhatCairoStrokes() throws {
        var seeded = SplitMix(state: 7)
        // Six zigzags, each in its own band of rows, so that no two lines cross (where they do, the
        // mask covers a pixel as much as the more covering line does, Cairo as much as both).
        let lines: [[Point]] = (0..<6).map { k in
            var x = 8.0
            var line: [Point] = []
            while x < 120 {
                line.append(Point(x, Double(k) * 20 + 8 + 8 * seeded.unit()))
                x += 6 + 20 * seeded.unit()
            }
            return line
        }
        for width in [0.6, 1, 1.6, 2.5, 6] {
            for cap in [MC_CAP_BUTT, MC_CAP_ROUND, MC_CAP_SQUARE] {
                for dashes in [[], [3 * width, 2 * width]] {
                    let ours = try Self.draw(lines, width: width, cap: cap, dashes: dashes, cairo: false, size: (128, 128))
                    let theirs = try Self.draw(lines, width: width, cap: cap, dashes: dashes, cairo: true, size: (128, 128))
                    var total = 0, largest = 0, covered = 0, far = 0
                    for y in 0..<128 {
                        for x in 0..<128 {
                            let a = Self.alpha(ours, x, y), b = Self.alpha(theirs, x, y)
                            total += abs(a - b)
                            largest = max(largest, abs(a - b))
                            covered += b > 0 ? 1 : 0
                            far += abs(a - b) > 64 ? 1 : 0
                        }
                    }
                    let mean = Double(total) / Double(max(1, covered))
                    let summary = "width \(width) cap \(cap.rawValue) dashes \(dashes): mean \(mean) over \(covered) px, \(far) more than 64 apart, largest \(largest)"
                    // Round ends are covered by their distance from the end, as MapLibre covers them;
                    // on lines under 2 pixels wide Cairo's circles (polygons of a few sides) cover
                    // less, which shows on the many ends of short dashes.
                    #expect(mean < (width < 1 ? 16 : width < 2 ? 12 : 4), "\(summary)")
                    #expect(Double(far) <= 0.015 * Double(covered) && largest <= 128, "\(summary)")
                }
            }
        }
    }

    /// A line cut in two with open ends where it was cut draws what the whole line draws; a
    /// closed ring has no notch where it starts, as Cairo draws a closed path.
    @Test func openEndsAndClosedRings() throws {
        func mask(_ body: (LineCoverageMask) -> Void) throws -> RasterImage {
            let image = try RasterImage(width: 64, height: 64)
            let context = try DrawingContext(image)
            cairo_set_source_rgba(context.cr, 0, 0, 0, 1)
            let mask = try #require(LineCoverageMask(minX: 0, minY: 0, maxX: 64, maxY: 64))
            body(mask)
            try mask.paint(on: context.cr)
            try context.finish("draw")
            return image
        }
        let line = [Point(4, 10.3), Point(30, 21.7), Point(60, 12.2)]
        let whole = try mask { $0.add(line, halfWidth: 1, cap: MC_CAP_BUTT) }
        let cut = Point(17, 10.3 + (21.7 - 10.3) * 13 / 26)
        let halves = try mask {
            $0.add([line[0], cut], halfWidth: 1, cap: MC_CAP_BUTT, ends: MC_END_OPEN)
            $0.add([cut, line[1], line[2]], halfWidth: 1, cap: MC_CAP_BUTT, ends: MC_START_OPEN)
        }
        let differing = (0..<64 * 64).filter { whole.rgba(x: $0 % 64, y: $0 / 64) != halves.rgba(x: $0 % 64, y: $0 / 64) }
        #expect(differing.isEmpty, "\(differing.count) pixels differ")
        let ring = [Point(10.5, 10.5), Point(50.5, 10.5), Point(50.5, 50.5), Point(10.5, 50.5), Point(10.5, 10.5)]
        let closed = try mask { $0.add(ring, halfWidth: 1, cap: MC_CAP_BUTT, ends: MC_CLOSED) }
        let open = try mask { $0.add(ring, halfWidth: 1, cap: MC_CAP_BUTT) }
        // The corner where the ring starts: rounded when closed, notched when capped.
        #expect(Self.alpha(closed, 9, 9) > 0 && Self.alpha(open, 9, 9) == 0)
        #expect(Self.alpha(closed, 9, 9) == Self.alpha(closed, 51, 51), "every corner alike")
    }

    /// Where two lines cross, or a line turns back over itself, the pixel is covered once.
    @Test func overlapsAreNotDrawnTwice() throws {
        let image = try Self.draw([[Point(10, 32.5), Point(54, 32.5), Point(10, 32.5)], [Point(32.5, 10), Point(32.5, 54)]],
                                  width: 3, cap: MC_CAP_BUTT, cairo: false)
        #expect(Self.alpha(image, 32, 32) == 255 && Self.alpha(image, 20, 32) == 255)
    }

    /// A mask the size of a band of a map lies on memory shared with other masks and images
    /// (from the pool, or huge pages when larger): one made after another was released starts
    /// empty, whichever memory it takes, and draws only its own lines.
    @Test func aMaskOnReleasedMemoryStartsEmpty() throws {
        for size in [(1024, 256), (333, 317), (2100, 1100)] {
            let first = try Self.draw([[Point(0, 10.5), Point(Double(size.0), 10.5)]], width: 3, cap: MC_CAP_BUTT,
                                      cairo: false, size: size)
            #expect(Self.alpha(first, 5, 10) == 255)
            let second = try Self.draw([[Point(20.5, 0), Point(20.5, Double(size.1))]], width: 3, cap: MC_CAP_BUTT,
                                       cairo: false, size: size)
            #expect(Self.alpha(second, 20, 50) == 255)
            #expect(Self.alpha(second, 5, 10) == 0 && Self.alpha(second, size.0 - 5, 10) == 0,
                    "\(size): the last mask's line shows through")
        }
    }

    /// With a blur, the sides fade as MapLibre's line shader fades them: from none half a pixel
    /// outside the edge, linearly over blur + 1 pixels inward, so a line narrower than that never
    /// reaches full coverage (a 1-pixel line blurred by 0.4 peaks at 1 / 1.4 of opaque).
    @Test func aBlurFadesTheSidesAsMapLibreDoes() throws {
        func row(_ width: Double, blur: Double, rows: ClosedRange<Int>) throws -> [Int] {
            let mask = try #require(LineCoverageMask(minX: 0, minY: 0, maxX: 64, maxY: 64))
            mask.add([Point(8, 20.5), Point(56, 20.5)], halfWidth: width / 2, blur: blur, cap: MC_CAP_ROUND)
            let image = try RasterImage(width: 64, height: 64)
            let context = try DrawingContext(image)
            cairo_set_source_rgba(context.cr, 0, 0, 0, 1)
            try mask.paint(on: context.cr)
            try context.finish("blurred line")
            return rows.map { Self.alpha(image, 30, $0) }
        }
        // Centre 20.5: pixel centres 0, 1, 2 … pixels from it.
        #expect(try row(1, blur: 0.4, rows: 19...22) == [0, 182, 0, 0])
        // 10 wide, blur 4: (5.5 − d) / 5 of opaque at d pixels from the middle, opaque within 0.5.
        let wide = try row(10, blur: 4, rows: 20...26)
        let expected = (0...6).map { d in Int((max(0, min(1, (5.5 - Double(d)) / 5)) * 255).rounded()) }
        #expect(wide.enumerated().allSatisfy { abs($1 - expected[$0]) <= 1 }, "\(wide) against \(expected)")
        // The round ends fade the same way.
        let mask = try #require(LineCoverageMask(minX: 0, minY: 0, maxX: 64, maxY: 64))
        mask.add([Point(8, 20.5), Point(56, 20.5)], halfWidth: 5, blur: 4, cap: MC_CAP_ROUND)
        let image = try RasterImage(width: 64, height: 64)
        let context = try DrawingContext(image)
        cairo_set_source_rgba(context.cr, 0, 0, 0, 1)
        try mask.paint(on: context.cr)
        try context.finish("blurred ends")
        #expect(abs(Self.alpha(image, 5, 20) - 153) <= 1, "2.5 px before the end, 3 / 5: \(Self.alpha(image, 5, 20))")
    }

    /// Dashes: 6 on, 4 off along a horizontal line, butt caps.
    @Test func dashesAlternate() throws {
        let image = try Self.draw([[Point(0, 20.5), Point(60, 20.5)]], width: 2, cap: MC_CAP_BUTT, dashes: [6, 4], cairo: false)
        let row = (0..<60).map { Self.alpha(image, $0, 20) > 128 ? "#" : "." }.joined()
        #expect(row == String(repeating: "######....", count: 6))
    }

    /// Bad input draws nothing and says so: NaN points, a width of no size, a dash pattern of no length.
    @Test func badInputDrawsNothing() throws {
        let data = UnsafeMutablePointer<UInt8>.allocate(capacity: 64 * 64)
        defer { data.deallocate() }
        var mask = mc_coverage_mask(data: data, stride: 64, width: 64, height: 64, origin_x: 0, origin_y: 0,
                                    touched_x0: 0, touched_y0: 0, touched_x1: 0, touched_y1: 0)
        mc_coverage_mask_clear(&mask)
        let line: [Double] = [1, 1, .nan, 5]
        #expect(mc_line_coverage_add(&mask, line, 2, 1, 0, MC_CAP_BUTT, 0, nil, 0) == -1)
        let good: [Double] = [1, 1, 40, 5]
        #expect(mc_line_coverage_add(&mask, good, 2, 0, 0, MC_CAP_BUTT, 0, nil, 0) == -1)
        #expect(mc_line_coverage_add(&mask, good, 2, 1, 0, MC_CAP_BUTT, 0, [0, 0], 2) == -1)
        #expect(mc_line_coverage_add(&mask, good, 2, 1, 0, MC_CAP_BUTT, 0, [1, -1], 2) == -1)
        #expect(mc_line_coverage_add(&mask, good, 2, 1, -1, MC_CAP_BUTT, 0, nil, 0) == -1)
        #expect(mc_line_coverage_add(&mask, good, 2, 1, .nan, MC_CAP_BUTT, 0, nil, 0) == -1)
        #expect(mc_line_coverage_add(&mask, good, 2, 1, .infinity, MC_CAP_BUTT, 0, nil, 0) == -1)
        #expect((0..<64 * 64).allSatisfy { data[$0] == 0 })
        // Far outside the mask: nothing drawn, nothing touched.
        let far: [Double] = [-1e7, -1e7, 1e7, -1e7]
        #expect(mc_line_coverage_add(&mask, far, 2, 1, 0, MC_CAP_ROUND, 0, [1, 1], 2) == 0)
        #expect(mask.touched_x0 >= mask.touched_x1)
        // Through the mask from far outside, dashed: only what lies near it is walked and drawn.
        let overflowing: [Double] = [-1e300, 5.5, 1e300, 5.5]
        #expect(mc_line_coverage_add(&mask, overflowing, 2, 1, 0, MC_CAP_BUTT, 0, [3, 1], 2) == -1)
        let through: [Double] = [-1e12, 5.5, 1e12, 5.5]
        #expect(mc_line_coverage_add(&mask, through, 2, 1, 0, MC_CAP_BUTT, 0, [3, 1], 2) == 0)
        #expect(mask.touched_y0 == 4 && mask.touched_y1 == 7 && mask.touched_x0 == 0 && mask.touched_x1 == 64)
        #expect((0..<64).filter { data[5 * 64 + $0] == 255 }.count >= 40, "dashes across row 5")
        #expect(LineCoverageMask(minX: 0, minY: 0, maxX: 1e6, maxY: 1e6) == nil, "too many pixels")
        #expect(LineCoverageMask(minX: .nan, minY: 0, maxX: 1, maxY: 1) == nil)
    }
}
