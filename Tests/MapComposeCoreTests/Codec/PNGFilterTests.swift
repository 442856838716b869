import CImageCodecs
import MapComposeTestSupport
import Testing

/// The PNG writer's row filter (`mc_png_filter_row`): it picks the filter of least absolute sum,
/// ties to the lower type, and its AVX2 loop writes exactly what the portable loop writes.
@Suite struct PNGFilterTests {
    /// The five PNG filters of `row` over `prior`, written out plainly from the PNG spec.
    static func reference(_ row: [UInt8], _ prior: [UInt8], bpp: Int) -> (type: UInt8, bytes: [UInt8]) {
        func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
            let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
            return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
        }
        var best: (type: UInt8, bytes: [UInt8], cost: Int)?
        for type in 0..<5 {
            let bytes = row.indices.map { i -> UInt8 in
                let x = Int(row[i]), a = i >= bpp ? Int(row[i - bpp]) : 0, b = Int(prior[i])
                let c = i >= bpp ? Int(prior[i - bpp]) : 0
                let predicted = [0, a, b, (a + b) / 2, paeth(a, b, c)][type]
                return UInt8(truncatingIfNeeded: x - predicted)
            }
            let cost = bytes.reduce(0) { $0 + ($1 < 128 ? Int($1) : 256 - Int($1)) }
            if best == nil || cost < best!.cost { best = (UInt8(type), bytes, cost) }
        }
        return (best!.type, best!.bytes)
    }

    /// Rows of a kind the writer meets: smooth runs, noise, flat areas, all 0 or all 255.
    static func row(_ length: Int, kind: Int, _ random: inout SplitMix) -> [UInt8] {
        (0..<length).map { i in
            switch kind {
            case 0: UInt8(truncatingIfNeeded: i * 3 + Int(random.next() % 4))
            case 1: UInt8(truncatingIfNeeded: random.next())
            case 2: UInt8(i / 50 % 2 == 0 ? 200 : 17)
            case 3: 255
            default: 0
            }
        }
    }

    static func filtered(_ row: [UInt8], _ prior: [UInt8], bpp: Int, vectorized: Bool) -> [UInt8] {
        let pad = [UInt8](repeating: 0, count: bpp)
        let paddedRow = pad + row, paddedPrior = pad + prior
        var out = [UInt8](repeating: 0xEE, count: row.count + 1)
        paddedRow.withUnsafeBufferPointer { r in
            paddedPrior.withUnsafeBufferPointer { p in
                mc_png_filter_row(r.baseAddress! + bpp, p.baseAddress! + bpp, row.count, Int32(bpp), vectorized ? 1 : 0, &out)
            }
        }
        return out
    }

    @Test func bothLoopsMatchTheSpecAtEveryLength() {
        var random = SplitMix(state: 11)
        var typesSeen = Set<UInt8>()
        for bpp in [3, 4] {
            for length in Array(1...130) + [255, 1023, 3072, 4096] {
                for kind in 0..<5 {
                    let row = Self.row(length, kind: kind, &random), prior = Self.row(length, kind: (kind + 1) % 5, &random)
                    let expected = Self.reference(row, prior, bpp: bpp)
                    let portable = Self.filtered(row, prior, bpp: bpp, vectorized: false)
                    let vectorized = Self.filtered(row, prior, bpp: bpp, vectorized: true)
                    #expect(portable == [expected.type] + expected.bytes, "portable, bpp \(bpp), \(length) bytes, kind \(kind)")
                    #expect(vectorized == portable, "vectorized, bpp \(bpp), \(length) bytes, kind \(kind)")
                    typesSeen.insert(expected.type)
                }
            }
        }
        // The rows exercise every filter, so each one's vector code is compared.
        #expect(typesSeen == [0, 1, 2, 3, 4])
    }

    /// Rows of a map: flat areas of a few colours, where most 32-byte stretches equal the bytes
    /// left of them and above them (the vector loop's shortcut), crossed by lines that differ
    /// from the row above in a few bytes and by edges that move from row to row.
    @Test func mapRowsFilterAsTheSpecSaysWithEitherLoop() {
        var random = SplitMix(state: 13)
        var typesSeen = Set<UInt8>()
        var flatStretches = 0
        for bpp in [3, 4] {
            for length in [32, 33, 96, 255, 1023, 3072] {
                for round in 0..<32 {
                    // Areas of one colour each, between edges at random pixels; every other row,
                    // edges that move from the row above (slanted borders): bytes flat in this row
                    // over an edge of the row above, at every place in a 32-byte stretch.
                    // Now and then colours near 0 and 255, whose bytes None costs little.
                    let palette: [UInt8] = round % 5 == 4 ? [0, 1, 2, 255, 254] : (0...255).map { UInt8($0) }
                    let colours: [[UInt8]] = (0..<3).map { _ in (0..<bpp).map { _ in palette[Int(random.next() % UInt64(palette.count))] } }
                    var edges: [Int] = []
                    var edge = 0
                    while edge < length / bpp {
                        edge += 2 + Int(random.next() % 80)
                        edges.append(edge)
                    }
                    func areas(_ edges: [Int]) -> [UInt8] {
                        var area = 0
                        return (0..<length).map { i in
                            while area < edges.count && edges[area] <= i / bpp { area += 1 }
                            return colours[area % 3][i % bpp]
                        }
                    }
                    let prior = areas(edges)
                    var row = round % 2 == 1 ? areas(edges.map { $0 + Int(random.next() % 5) - 2 }) : prior
                    // A few crossings: single bytes or short runs that differ from the row above.
                    for _ in 0..<Int(random.next() % 6) {
                        let at = Int(random.next() % UInt64(length)), run = 1 + Int(random.next() % UInt64(3 * bpp))
                        for i in at..<min(length, at + run) { row[i] = round % 3 == 0 ? 0 : UInt8(truncatingIfNeeded: random.next()) }
                    }
                    if round % 5 == 4 { for i in row.indices where random.next() % 4 == 0 { row[i] = palette[i % palette.count] } }
                    if round % 8 == 6 { row = prior }  // now and then a row the same as the one above
                    let padded = [UInt8](repeating: 0, count: bpp)
                    let r = padded + row, p = padded + prior
                    flatStretches += stride(from: 0, to: length - 31, by: 32).filter { start in
                        (start..<start + 32).allSatisfy { i in
                            let x = r[i + bpp], a = r[i], b = p[i + bpp]
                            return x == a && x == b
                        }
                    }.count
                    let expected = Self.reference(row, prior, bpp: bpp)
                    let portable = Self.filtered(row, prior, bpp: bpp, vectorized: false)
                    let vectorized = Self.filtered(row, prior, bpp: bpp, vectorized: true)
                    // The first byte that differs, if any (whole rows of thousands of bytes are
                    // too long to read in a failure).
                    let wanted = [expected.type] + expected.bytes
                    let portableAt = portable.indices.first { portable[$0] != wanted[$0] }
                    let vectorizedAt = vectorized.indices.first { vectorized[$0] != portable[$0] }
                    #expect(portableAt == nil, "portable, bpp \(bpp), \(length) bytes, round \(round): byte \(portableAt ?? -1)")
                    #expect(vectorizedAt == nil, "vectorized, bpp \(bpp), \(length) bytes, round \(round): byte \(vectorizedAt ?? -1)")
                    typesSeen.insert(expected.type)
                }
            }
        }
        // The rows hold flat stretches (the shortcut is taken) and the heuristic picks more than
        // one filter for them.
        #expect(flatStretches > 100)
        #expect(typesSeen.count >= 3)

        // A row that None wins although a stretch of it is flat (equal to the bytes left of it and
        // above it: every other filter would make it zeros): bytes of 0 with a 1 every bpp + 1
        // bytes, which None costs least, over a row of noise, around 72 bytes of 1 in both rows.
        for bpp in [3, 4] {
            let length = 1024, stretch = 88..<160
            let row = (0..<length).map { i in stretch.contains(i) || i % (bpp + 1) == 0 ? UInt8(1) : 0 }
            let prior = (0..<length).map { i in stretch.contains(i) ? 1 : UInt8(truncatingIfNeeded: random.next()) }
            let expected = Self.reference(row, prior, bpp: bpp)
            #expect(expected.type == 0, "bpp \(bpp): None is the cheapest filter of this row")
            #expect(Self.filtered(row, prior, bpp: bpp, vectorized: true) == [expected.type] + expected.bytes, "bpp \(bpp)")
            // The same pattern over the first 480 bytes of a row that is otherwise flat in a
            // colour None costs 2 a byte: counting the flat bytes, None loses; without them it
            // would win.
            let start = 0..<480
            let dear = (0..<length).map { i in start.contains(i) ? (i % (bpp + 1) == 0 ? UInt8(1) : 0) : 2 }
            let dearPrior = (0..<length).map { i in start.contains(i) ? UInt8(truncatingIfNeeded: random.next()) : 2 }
            let dearExpected = Self.reference(dear, dearPrior, bpp: bpp)
            #expect(dearExpected.type != 0, "bpp \(bpp): a filter other than None is the cheapest")
            #expect(Self.filtered(dear, dearPrior, bpp: bpp, vectorized: true) == [dearExpected.type] + dearExpected.bytes, "bpp \(bpp)")
        }
    }

    /// A row equal to the one above is filtered without looking at the row above, to what the
    /// heuristic gives: Up's zeros, or None for a row of zeros.
    @Test func aRepeatedRowFiltersAsTheHeuristicDoes() {
        var random = SplitMix(state: 12)
        for bpp in [3, 4] {
            for length in [1, 2, 3, 7, 64, 1023, 3072] {
                for kind in 0..<5 {
                    let row = Self.row(length, kind: kind, &random)
                    let expected = Self.filtered(row, row, bpp: bpp, vectorized: true)
                    var out = [UInt8](repeating: 0xEE, count: length + 1)
                    mc_png_filter_repeated_row(row, length, &out)
                    #expect(out == expected, "bpp \(bpp), length \(length), kind \(kind)")
                    #expect(out[0] == (kind == 4 ? 0 : 2))
                }
            }
        }
    }
}
