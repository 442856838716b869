import FuzzSupport
import MapComposeCore

/// Arbitrary bytes as a tile: an image whose every pixel can be read, or a decode error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTileDecoder(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let image = try? TileDecoder.decode(FuzzInput.data(bytes, size)) else { return 0 }
    let sum = image.withPixels { pixels, _ in pixels.reduce(0 as UInt32) { $0 &+ $1 } }
    precondition(image.width > 0 && image.height > 0 && sum >= 0)
    return 0
}
