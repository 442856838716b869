import Foundation
import Testing
@testable import MapComposeCore

/// `Gzip.compress` writes gzip streams that `Gzip.inflate` (zlib) reads back byte for byte.
@Suite struct GzipCompressTests {
    @Test func compressedBytesInflateToTheOriginal() throws {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let repetitive = [UInt8](String(repeating: "tile ", count: 50_000).utf8)
        for (bytes, level) in [([UInt8](), Int32(6)), (random, 6), (repetitive, 9), (repetitive, 0), (repetitive, -1), (random, 42)] {
            let compressed = Gzip.compress(bytes, level: level)
            #expect(Gzip.isCompressed(Data(compressed)), "level \(level)")
            #expect(try Gzip.inflate(Data(compressed), limit: 1 << 20) == Data(bytes), "\(bytes.count) bytes, level \(level)")
        }
        #expect(Gzip.compress(repetitive).count < 2_000)
    }
}
