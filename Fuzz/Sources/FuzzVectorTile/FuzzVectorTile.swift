import Foundation
import FuzzSupport
import MapComposeCore

/// Arbitrary bytes as a vector tile: every layer's features, their properties and geometry,
/// decoded or refused with an error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVectorTile(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let tile = try? VectorTile(FuzzInput.data(bytes, size)) else { return 0 }
    for layer in tile.layers {
        for feature in layer.features {
            _ = try? layer.properties(of: feature)
            _ = try? layer.geometry(of: feature)
        }
    }
    return 0
}
