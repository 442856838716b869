import Foundation
import FuzzSupport
import MapComposeCore

/// Arbitrary bytes as a PMTiles file: a source (header, root directory, metadata) whose tiles
/// of its first levels can be fetched through the leaf directories, or an error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPMTiles(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let file = ScratchFolder.write(FuzzInput.data(bytes, size), to: "input.pmtiles")
    defer { try? FileManager.default.removeItem(at: file) }
    let spec = PMTilesSourceSpec(location: .file(file), remote: RemoteOptions(layer: "fuzz"))
    guard let source = try? PMTilesSource(spec: spec, environment: OfflineRemote.environment) else { return 0 }
    FuzzInput.wait {
        let level = source.info.nativeZoom.lowerBound
        for coord in [TileCoord(z: level, x: 0, y: 0), TileCoord(z: min(level + 1, 30), x: 1, y: 0)] {
            _ = await source.fetch(coord, pixelRatio: 1)
        }
    }
    return 0
}
