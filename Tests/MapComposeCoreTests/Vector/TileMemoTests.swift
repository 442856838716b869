import Foundation
import MapComposeTestSupport
import Testing
@testable import MapComposeCore

/// The decoded tiles a MapLibre style keeps between renders: bounded in bytes, the least
/// recently used given up first.
@Suite struct TileMemoTests {
    /// A raster tile of `side`² pixels (`side` a multiple of 16: 4 × side² bytes).
    static func tile(_ side: Int) throws -> PlacedTile.Content {
        .raster(try RasterImage(width: side, height: side))
    }

    @Test func theLeastRecentlyUsedTileGoesFirst() throws {
        let memo = TileMemo(byteBudget: 3 * 64 * 64 * 4)
        for key in ["a", "b", "c"] { memo.put(key, try Self.tile(64)) }
        #expect(memo.count == 3 && memo.bytes == 3 * 16384)
        _ = memo.get("a")
        memo.put("d", try Self.tile(64))
        #expect(memo.get("a") != nil && memo.get("b") == nil && memo.get("c") != nil && memo.get("d") != nil)
        #expect(memo.bytes <= memo.byteBudget)
        // Put again under the same key: counted once.
        memo.put("d", try Self.tile(64))
        #expect(memo.count == 3 && memo.bytes == 3 * 16384)
    }

    @Test func aTileLargerThanTheBudgetIsNotKept() throws {
        let memo = TileMemo(byteBudget: 64 * 64 * 4)
        memo.put("big", try Self.tile(128))
        #expect(memo.get("big") == nil && memo.bytes == 0)
        let none = TileMemo(byteBudget: 0)
        none.put("a", try Self.tile(16))
        #expect(none.count == 0)
    }

    @Test func vectorTilesCountTheirBytes() throws {
        let data = try Data(contentsOf: TestPaths.fixture("VectorTiles").appendingPathComponent("ne-2-2-1.mvt"))
        let tile = try VectorTile(data)
        #expect(tile.byteCount == data.count && !tile.layers.isEmpty)
        let memo = TileMemo(byteBudget: data.count + 256 * tile.layers.count)
        memo.put("2/2/1", .vector(tile))
        #expect(memo.count == 1 && memo.bytes == memo.byteBudget)
        memo.put("2/2/1 again", .vector(tile))
        #expect(memo.count == 1 && memo.get("2/2/1") == nil)
    }

    @Test func manyUsesStayWithinTheBudget() throws {
        var generator = SystemRandomNumberGenerator()
        // Many keys, used and replaced in a random order: always within the budget.
        let memo = TileMemo(byteBudget: 40 * 16 * 16 * 4)
        let small = try Self.tile(16)
        for step in 0..<20_000 {
            let key = "k\(Int.random(in: 0..<200, using: &generator))"
            if step % 3 == 0 { _ = memo.get(key) } else { memo.put(key, small) }
            #expect(memo.bytes <= memo.byteBudget)
        }
        #expect(memo.count == 40)
    }
}
