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
