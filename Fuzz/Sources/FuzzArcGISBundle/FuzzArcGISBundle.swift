import Foundation
import FuzzSupport
import MapComposeCore

/// The conf.xml of the fuzzed caches: standard Web Mercator levels 0–2, storage per version.
func bundleConf(_ storage: String) -> String {
    let lods = (0...2).map { level in
        "<LODInfo><LevelID>\(level)</LevelID><Resolution>\(156543.03392804097 / Double(1 << level))</Resolution></LODInfo>"
    }.joined()
    return "<CacheInfo><TileCacheInfo><SpatialReference><WKID>102100</WKID></SpatialReference>"
        + "<TileOrigin><X>-20037508.342787</X><Y>20037508.342787</Y></TileOrigin><TileCols>256</TileCols>"
        + "<TileRows>256</TileRows><DPI>96</DPI><LODInfos>\(lods)</LODInfos></TileCacheInfo>"
        + "<TileImageInfo><CacheTileFormat>PNG</CacheTileFormat></TileImageInfo>"
        + "<CacheStorageInfo><StorageFormat>\(storage)</StorageFormat><PacketSize>128</PacketSize></CacheStorageInfo></CacheInfo>"
}

func littleEndian(_ value: UInt64, width: Int) -> Data {
    Data((0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) })
}

/// Arbitrary bytes as the bundle files of a level-1 compact cache, then tiles read through an
/// `ArcGISTileSource`: a tile, a miss, or a `corrupt` reason — never a crash or a read outside
/// the files. Byte 0 chooses the layout: bit 0 version 1 (`.bundle` + `.bundlx`) or 2; bit 1
/// raw (the rest is the file(s), for version 1 split at the little-endian u16 in bytes 1–2,
/// times 2) or structured (bytes 1–2: row and column; then one index entry, 5 bytes for
/// version 1 or 8 for version 2, in an otherwise empty index; the rest is the bundle's body).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArcGISBundle(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput.data(bytes, size)
    guard let mode = input.first else { return 0 }
    let version1 = mode & 1 == 1, raw = mode & 2 == 2
    let rest = input.dropFirst()
    var row = 0, column = 0
    var bundle = Data(), bundlx = Data()
    if raw {
        if version1 {
            let split = rest.count >= 2 ? (Int(rest[rest.startIndex]) | Int(rest[rest.startIndex + 1]) << 8) * 2 : 0
            let body = rest.dropFirst(2)
            bundlx = Data(body.prefix(split))
            bundle = Data(body.dropFirst(split))
        } else {
            bundle = Data(rest)
        }
    } else {
        guard rest.count >= 2 else { return 0 }
        row = Int(rest[rest.startIndex]) % 128
        column = Int(rest[rest.startIndex + 1]) % 128
        let width = version1 ? 5 : 8
        let entryBytes = rest.dropFirst(2).prefix(width)
        let entry = entryBytes.reversed().reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
        let body = Data(rest.dropFirst(2 + width))
        if version1 {
            var offsets = Data(count: 16 + 128 * 128 * 5 + 16)
            offsets.replaceSubrange((16 + (column * 128 + row) * 5)..<(16 + (column * 128 + row + 1) * 5),
                                    with: littleEndian(entry, width: 5))
            bundlx = offsets
            bundle = body
        } else {
            var index = Data(count: 64 + 128 * 128 * 8)
            index.replaceSubrange((64 + (row * 128 + column) * 8)..<(64 + (row * 128 + column + 1) * 8),
                                  with: littleEndian(entry, width: 8))
            bundle = index + body
        }
    }
    let layer = version1 ? "v1" : "v2"
    ScratchFolder.write(Data(bundleConf(version1 ? "esriMapCacheStorageModeCompact" : "esriMapCacheStorageModeCompactV2").utf8),
                        to: "\(layer)/conf.xml")
    let base = "\(layer)/_alllayers/L01/R0000C0000"
    ScratchFolder.write(bundle, to: base + ".bundle")
    if version1 { ScratchFolder.write(bundlx, to: base + ".bundlx") }
    guard let source = try? ArcGISTileSource(spec: ArcGISSourceSpec(folder: ScratchFolder.url.appendingPathComponent(layer))) else {
        return 0
    }
    let coords = [(column, row), (0, 0), (1, 1), (0, 1)]
    FuzzInput.wait {
        for (x, y) in coords {
            if case .found(.encoded(let data)) = await source.fetch(TileCoord(z: 1, x: x, y: y), pixelRatio: 1).outcome {
                _ = try? TileDecoder.decode(data)
            }
        }
    }
    return 0
}
