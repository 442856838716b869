import Foundation
import FuzzSupport
import MapComposeCore

/// Arbitrary bytes as an MBTiles file: a source whose first tile can be fetched and decoded,
/// or an error. (One fetch: each further one would open another pooled connection.)
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMBTiles(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let file = ScratchFolder.write(FuzzInput.data(bytes, size), to: "input.mbtiles")
    defer {
        for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
    }
    guard let source = try? MBTilesSource(spec: MBTilesSourceSpec(file: file)) else { return 0 }
    FuzzInput.wait {
        let coord = TileCoord(z: source.info.nativeZoom.lowerBound, x: 0, y: 0)
        if case .found(.encoded(let data)) = await source.fetch(coord, pixelRatio: 1).outcome {
            _ = try? TileDecoder.decode(data)
        }
    }
    return 0
}
