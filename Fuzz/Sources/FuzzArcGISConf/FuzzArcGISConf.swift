import Foundation
import FuzzSupport
import MapComposeCore

/// Arbitrary bytes as an ArcGIS cache's conf.xml (and, the same bytes, its conf.cdi): a cache
/// description and its grid, or an error naming the file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArcGISConf(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput.data(bytes, size)
    if let info = try? ArcGISCacheInfo(xml: input, path: "conf.xml") {
        if let matrix = try? info.matrix(path: "conf.xml") {
            _ = matrix.level(forResolution: 1000)
            _ = matrix.covering(MetersRect(minX: -1e6, minY: -1e6, maxX: 1e6, maxY: 1e6), level: matrix.levelRange.upperBound)
        }
    }
    if let extent = try? ArcGISCacheExtent(xml: input, path: "conf.cdi") {
        _ = extent.bounds
    }
    return 0
}
