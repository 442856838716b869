import Foundation
import Testing
@testable import MapComposeCore

/// Bands cover every row exactly once, in order, however many cores there are.
@Suite struct RowBandsTests {
    @Test(arguments: [(0, 2), (1, 2), (15, 2), (33, 2), (1000, 3), (2048, 2), (2048, 64), (7, 1)])
    func bandsCoverEveryRowOnce(rows: Int, cores: Int) {
        let bands = RowBands(rows: rows, cores: cores)
        #expect(bands.count >= 1 && bands.count <= max(1, cores * 4))
        let covered = (0..<bands.count).flatMap { Array(bands.rows(of: $0)) }
        #expect(covered == Array(0..<rows))
    }

    @Test func everyBandRunsOnce() {
        let bands = RowBands(rows: 2048, cores: 4)
        let seen = UnsafeMutableBufferPointer<Int>.allocate(capacity: bands.count)
        seen.initialize(repeating: 0)
        defer { seen.deallocate() }
        bands.forEachConcurrently { band, rows in
            seen[band] += rows.count
        }
        #expect(Array(seen) == (0..<bands.count).map { bands.rows(of: $0).count })
        #expect(seen.reduce(0, +) == 2048)
    }

    /// Fixed bands start every `rowsPerBand` rows whatever the number of cores; the last one
    /// holds what is left.
    @Test(arguments: [(700, 64), (64, 64), (65, 64), (1, 64), (1024, 1)])
    func fixedBandsStartEveryFewRows(_ rows: Int, _ perBand: Int) {
        let bands = RowBands(rows: rows, rowsPerBand: perBand)
        #expect(bands.count == (rows + perBand - 1) / perBand)
        #expect((0..<bands.count).flatMap { Array(bands.rows(of: $0)) } == Array(0..<rows))
        #expect((0..<bands.count).allSatisfy { bands.rows(of: $0).lowerBound == $0 * perBand })
    }
}
